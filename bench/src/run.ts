import { execSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serverNodeFlags } from './server-flags.js';

/**
 * `npm run bench`: every benchmark in turn; each prints its figures beside its raw SQL baseline (or
 * its target). `npm run bench -- <name>` (foundation, tickets, outreach, workspace, api, inbound,
 * startup, web) runs only that one.
 */
const missing = serverNodeFlags.filter((flag) => !process.execArgv.includes(flag));
if (missing.length) {
  // The in-process benchmarks host the server: run them as `npm start` runs it.
  const run = spawnSync(process.execPath, [...missing, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}
const only = process.argv[2];
const wants = (name: string) => !only || only === name;

/** startup and web measure what `npm start` runs: the builds, made first when they are missing. */
function ensureBuilt() {
  const repo = fileURLToPath(new URL('../../', import.meta.url));
  const built = ['apps/server/dist/main.js', 'apps/web/dist/index.html'].every((f) => existsSync(`${repo}${f}`));
  if (!built) execSync('npm run build', { cwd: repo, stdio: 'inherit' });
}

if (wants('foundation')) await import('./foundation.js');
if (wants('tickets')) await import('./tickets.js');
if (wants('outreach')) await import('./outreach.js');
if (wants('workspace')) await import('./workspace.js');
if (wants('api')) await import('./api-messages.js');
if (wants('inbound')) await (await import('./inbound.js')).benchInbound();
if (wants('startup') || wants('web')) ensureBuilt();
if (wants('startup')) await (await import('./startup.js')).benchStartup({ databaseUrl: process.env.DATABASE_URL });
if (wants('web')) await (await import('./web.js')).benchWeb();
