import { readFileSync } from 'node:fs';

/**
 * The Node flags `npm start` gives the server (apps/server's `serve` script): the benchmarks run
 * the server with them, in their own process or in the one they spawn.
 */
export const serverNodeFlags: string[] = (
  JSON.parse(readFileSync(new URL('../../apps/server/package.json', import.meta.url), 'utf8')).scripts.serve as string
)
  .split(/\s+/)
  .filter((arg) => arg.startsWith('--'));
