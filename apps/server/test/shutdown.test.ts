import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverProcess } from './server-process.js';

/**
 * SIGTERM is a clean stop from the moment the server answers: sent as soon as `/health` answers
 * (the workers, the connections and the web host still starting), the process finishes that start,
 * stops its workers and connections and exits 0, not killed by the signal. A second start on the
 * same database comes up as before.
 */
const databaseUrl = process.env.DATABASE_URL;

describe.runIf(databaseUrl)('stopping the server process (PostgreSQL)', () => {
  const server = serverProcess(databaseUrl as string, 'shutdown');

  beforeAll(() => server.setUp());
  afterAll(() => server.tearDown());

  it('a SIGTERM right after /health first answers exits cleanly, and the server starts again', async () => {
    await server.boot();
    expect(await server.terminate()).toEqual({ code: 0, signal: null });
    await server.boot();
    await server.login();
    expect((await server.api('GET', '/auth/me')).status).toBe(200);
    expect(await server.terminate()).toEqual({ code: 0, signal: null });
  });
});
