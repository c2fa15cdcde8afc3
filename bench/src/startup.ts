import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { serverNodeFlags } from './server-flags.js';

/**
 * Issue 16's start-up figures of the built server (`node apps/server/dist/main.js`, as `npm start` runs
 * it, in production mode): time from spawn to the first 200 of `/health` over several restarts on a
 * migrated database (median and max), the CPU the process spent until then, its RSS once idle and
 * with 10 Socket.IO clients connected and signed in. On PostgreSQL when `databaseUrl` is given (a fresh
 * database `balcao_bench_startup` on that server), else on PGlite. Redis when `REDIS_URL` is set.
 * `node --import tsx bench/src/startup.ts` runs it alone (with `DATABASE_URL` for PostgreSQL).
 */
const repo = fileURLToPath(new URL('../..', import.meta.url));
const server = path.join(repo, 'apps/server/dist/main.js');
const webDist = path.join(repo, 'apps/web/dist/index.html');
const RESTARTS = 7;
const CLIENTS = 10;
/** Time left to the process after start-up (and after the clients connect) before its RSS is read. */
const SETTLE_MS = 5000;
const TARGET = { startMs: 1000, idleMiB: 150, clientsMiB: 200 };
const ADMIN = { email: 'startup@bench.test', password: 'startup-bench-password' };
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** User + system CPU of a process so far, from /proc (a child's process.cpuUsage() is out of reach). */
const cpuMsOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
};
const rssMiBOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

/** A fresh, empty database on the server of `url`; the first start migrates it. */
async function freshPostgres(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const name = 'balcao_bench_startup';
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return {
    url: fresh.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

interface Started {
  child: ChildProcess;
  /** Spawn to the first 200 of /health. */
  ms: number;
  /** CPU the process spent until then. */
  cpuMs: number;
  stop(): Promise<void>;
}

async function start(env: NodeJS.ProcessEnv, port: number): Promise<Started> {
  const t = performance.now();
  const child = spawn(process.execPath, [...serverNodeFlags, server], {
    cwd: path.dirname(server),
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, ms: performance.now() - t, cpuMs: cpuMsOf(child.pid as number), stop };
    if (performance.now() - t > 60_000) {
      await stop();
      throw new Error('/health did not answer within 60 s');
    }
    await sleep(5);
  }
}

/** `CLIENTS` sessions of the admin, each with its Socket.IO connection, as signed-in browsers. */
async function signIn(base: string): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const res = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    if (res.status !== 200) throw new Error(`POST /auth/login: ${res.status} ${await res.text()}`);
    const { token } = (await res.json()) as { token: string };
    sockets.push(
      await new Promise<Socket>((resolve, reject) => {
        const s = io(base, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
        s.on('connect', () => resolve(s));
        s.on('connect_error', reject);
      }),
    );
  }
  return sockets;
}

export async function benchStartup({ databaseUrl }: { databaseUrl?: string } = {}) {
  for (const built of [server, webDist])
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'balcao-bench-startup-'));
  const postgres = databaseUrl ? await freshPostgres(databaseUrl) : undefined;
  const port = 18_000 + Math.floor(Math.random() * 2000);
  const secret = () => randomBytes(24).toString('hex');
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    WEB_PORT: String(port + 1),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: postgres?.url ?? '',
    JWT_SECRET: secret(),
    JWT_REFRESH_SECRET: secret(),
    ENCRYPTION_KEY: secret(),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  };
  const kind = postgres ? 'PostgreSQL' : 'PGlite';
  let current: Started | undefined;
  try {
    console.log(`\nStart-up bench on ${kind}${process.env.REDIS_URL ? ' + Redis' : ''} (load ${load()})`);
    const first = await start(env, port);
    await first.stop();
    const runs: Started[] = [];
    for (let i = 0; i < RESTARTS; i++) {
      await current?.stop();
      current = await start(env, port);
      runs.push(current);
    }
    // The last run stays up for the memory figures.
    const pid = current?.child.pid as number;
    await sleep(SETTLE_MS);
    const idleMiB = rssMiBOf(pid);
    const sockets = await signIn(`http://127.0.0.1:${port}`);
    await sleep(SETTLE_MS);
    const clientsMiB = rssMiBOf(pid);
    for (const s of sockets) s.disconnect();

    const ms = runs.map((r) => r.ms);
    const cpu = runs.map((r) => r.cpuMs);
    const f = (x: number) => x.toFixed(0).padStart(5);
    console.log(`first start (fresh database, migrations)  ${f(first.ms)} ms, ${f(first.cpuMs)} ms CPU`);
    console.log(
      `restart → /health (${RESTARTS} runs)         median ${f(median(ms))} ms  max ${f(Math.max(...ms))} ms   target ≤ ${TARGET.startMs} ms`,
    );
    console.log(`CPU before /health                        median ${f(median(cpu))} ms  max ${f(Math.max(...cpu))} ms`);
    console.log(`RSS idle                                  ${f(idleMiB)} MiB   target ≤ ${TARGET.idleMiB} MiB`);
    console.log(
      `RSS with ${CLIENTS} signed-in Socket.IO clients   ${f(clientsMiB)} MiB   target ≤ ${TARGET.clientsMiB} MiB`,
    );
    console.log(`(load after: ${load()})`);
    return { database: kind, firstMs: first.ms, startMs: ms, cpuMs: cpu, idleMiB, clientsMiB };
  } finally {
    await current?.stop();
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
if (isMain) await benchStartup({ databaseUrl: process.env.DATABASE_URL });
