import type { core } from 'zod';

/**
 * The client runs under a Content-Security-Policy without 'unsafe-eval' (the server's web host):
 * zod must neither compile its parsers with `new Function` nor probe whether it may. zod 4 keeps
 * its configuration on `globalThis.__zod_globalConfig` and adopts an existing one when it loads, so
 * setting it here (without importing zod) holds for the chunks that load zod later, and for a zod
 * already loaded.
 */
const scope = globalThis as { __zod_globalConfig?: core.$ZodConfig };
scope.__zod_globalConfig = Object.assign(scope.__zod_globalConfig ?? {}, { jitless: true });
