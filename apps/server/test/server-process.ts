import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const serverDir = fileURLToPath(new URL('..', import.meta.url));

/** A process killed by a signal has no exit code, only a signal code. */
const exited = (p: ChildProcess) => p.exitCode !== null || p.signalCode !== null;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The real server process (`src/main.ts`) on a PostgreSQL database of its own, for the fault tests
 * that kill it with SIGKILL or stop it with SIGTERM: `boot` waits for `/health`, `killHard` and
 * `terminate` wait for the exit, `db` reads
 * what the process wrote, `login`/`api` talk to it as the seeded super user.
 */
export function serverProcess(databaseUrl: string, label: string, env: Record<string, string> = {}) {
  const name = `balcao_${label}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  // A suite skipped for want of PostgreSQL still builds its harness: nothing connects until setUp.
  const url = new URL(databaseUrl || 'postgres://127.0.0.1/skipped');
  url.pathname = `/${name}`;
  const db = new pg.Client({ connectionString: url.toString() });
  const credentials = { email: `${label}@test.local`, password: `${label}-test-password` };
  let dataDir = '';
  let port = 0;
  let child: ChildProcess | undefined;
  let token = '';

  const killHard = async () => {
    const running = child;
    if (!running || exited(running)) return;
    const gone = new Promise((r) => running.once('exit', r));
    running.kill('SIGKILL');
    await gone;
  };

  return {
    db,
    async setUp() {
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      dataDir = await mkdtemp(path.join(os.tmpdir(), `balcao-${label}-`));
      port = await freePort();
    },
    async tearDown() {
      await killHard();
      await db.end().catch(() => undefined);
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      await rm(dataDir, { recursive: true, force: true });
    },
    /** Starts the server and resolves once `/health` answers. */
    async boot() {
      child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: serverDir,
        stdio: 'ignore',
        env: {
          ...process.env,
          NODE_ENV: 'development',
          DATABASE_URL: url.toString(),
          DATA_DIR: dataDir,
          PORT: String(port),
          SERVE_WEB: 'false',
          LOG_LEVEL: 'fatal',
          ADMIN_EMAIL: credentials.email,
          ADMIN_PASSWORD: credentials.password,
          LOGIN_LIMIT_IP: '1000',
          ...env,
        },
      });
      const deadline = Date.now() + 60_000;
      for (;;) {
        const up = await fetch(`http://127.0.0.1:${port}/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) return;
        if (Date.now() > deadline || exited(child)) throw new Error('server did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    killHard,
    /** Sends SIGTERM and resolves with how the process ended. */
    async terminate(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
      const running = child;
      if (!running || exited(running)) throw new Error('not running');
      const gone = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
        running.once('exit', (code, signal) => r({ code, signal })),
      );
      running.kill('SIGTERM');
      return gone;
    },
    /** Logs in as the super user the first boot seeded; later `api` calls carry the token. */
    async login(): Promise<{ token: string; user: { id: number } }> {
      const res = await fetch(`http://127.0.0.1:${port}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(credentials),
      });
      const session = (await res.json()) as { token: string; user: { id: number } };
      token = session.token;
      return session;
    },
    async api(method: string, route: string, body?: object) {
      const res = await fetch(`http://127.0.0.1:${port}${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> };
    },
    /** A connected sandbox connection, through the API. */
    async sandbox(connectionName: string): Promise<number> {
      const id = (await this.api('POST', '/whatsapp', { name: connectionName, provider: 'sandbox' })).json.id as number;
      await this.api('POST', `/whatsappsession/${id}`);
      const scan = await this.api('POST', `/sandbox/${id}/scan`);
      if (scan.status !== 200) throw new Error(`scan: ${scan.status}`);
      return id;
    },
  };
}
