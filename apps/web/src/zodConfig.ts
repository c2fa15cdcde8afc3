import { z } from 'zod';

// The client runs under a Content-Security-Policy without 'unsafe-eval' (the server's web host):
// zod must neither compile its parsers with `new Function` nor probe whether it may.
z.config({ jitless: true });
