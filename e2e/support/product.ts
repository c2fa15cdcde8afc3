import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
/** The server as `npm start` runs it, compiled by `npm run build` (which `npm run test:e2e` runs first). */
const server = path.join(repo, 'apps/server/dist/main.js');

export const ADMIN = { email: 'e2e-admin@balcao.test', password: 'e2e-admin-password' };

export interface Product {
  apiUrl: string;
  webUrl: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitFor(url: string, child: ChildProcess, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/**
 * Starts the built product as `npm start` would, on a fresh embedded database and free ports;
 * `env` adds or overrides variables of its process (e.g. a fake service's base URL).
 */
export async function startProduct(env: Record<string, string> = {}): Promise<Product> {
  if (!existsSync(server)) throw new Error(`${server} is missing: run \`npm run build\` first`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'balcao-e2e-'));
  const [port, webPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [server], {
    cwd: repo,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      WEB_PORT: String(webPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      FRONTEND_URL: `http://localhost:${webPort}`,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      // The WhatsApp check of contact-list items is paced (1.5 s a number by default); a journey need not wait.
      CONTACT_CHECK_GAP_MS: '100',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const apiUrl = `http://localhost:${port}`;
  const webUrl = `http://localhost:${webPort}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(`${apiUrl}/health`, child, 60_000);
    await waitFor(`${webUrl}/env.js`, child, 10_000);
  } catch (err) {
    // Do not leave a half-started server (or its data) behind when the start fails.
    await stop();
    throw err;
  }
  return { apiUrl, webUrl, stop };
}
