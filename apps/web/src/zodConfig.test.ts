import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

type Scope = { __zod_globalConfig?: Record<string, unknown> };
const scope = globalThis as Scope;
const loadedConfig = scope.__zod_globalConfig;

/** A fresh evaluation of zod's core, as a lazy chunk that loads zod after the app started. */
async function freshZodCore(): Promise<{ globalConfig: Record<string, unknown> }> {
  const coreDir = path.dirname(createRequire(import.meta.url).resolve('zod/v4/core'));
  return import(/* @vite-ignore */ `${pathToFileURL(path.join(coreDir, 'core.js')).href}?fresh=${Date.now()}`);
}

afterEach(() => {
  scope.__zod_globalConfig = loadedConfig;
});

describe('zod configuration (jitless, for the CSP)', () => {
  it('applies to a zod loaded before it', async () => {
    await import('./zodConfig');
    expect(z.config().jitless).toBe(true);
  });

  it('applies to a zod loaded after it, without loading zod itself', async () => {
    scope.__zod_globalConfig = undefined;
    vi.resetModules();
    await import('./zodConfig');
    expect(scope.__zod_globalConfig).toEqual({ jitless: true });
    const core = await freshZodCore();
    // The very object set before zod loaded, not a copy of its own.
    expect(core.globalConfig).toBe(scope.__zod_globalConfig);
    expect(core.globalConfig.jitless).toBe(true);
  });
});
