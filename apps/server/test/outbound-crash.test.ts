import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The fault test of outbound durability (issue 8): the real server process on PostgreSQL, agents
 * answering ten tickets while the process is killed with SIGKILL mid-way, again and again. After
 * the last restart every reply the server stored has reached the sandbox phone once, in the order
 * it was written. A kill between the provider's answer and the write of the provider id makes the
 * outbox send that reply again, under the same message id, which the phone (like WhatsApp) shows
 * once. `CRASH_RUNS` sets the number of kills.
 */
const RUNS = Number(process.env.CRASH_RUNS ?? 5);
const REPLIES_PER_TICKET = 20;
const TICKETS = 10;
const serverDir = fileURLToPath(new URL('..', import.meta.url));

const databaseUrl = process.env.DATABASE_URL;

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

describe.runIf(databaseUrl)('outbound replies across kill -9 (PostgreSQL)', () => {
  const name = `balcao_crash_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  let db: pg.Client;
  let dataDir: string;
  let port: number;
  let child: ChildProcess | undefined;
  let token = '';

  const env = () => {
    const url = new URL(databaseUrl as string);
    url.pathname = `/${name}`;
    return {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      PORT: String(port),
      SERVE_WEB: 'false',
      LOG_LEVEL: 'fatal',
      ADMIN_EMAIL: 'crash@test.local',
      ADMIN_PASSWORD: 'crash-test-password',
      LOGIN_LIMIT_IP: '1000',
      OUTBOX_LEASE_SECONDS: '3',
    };
  };

  const api = async (method: string, url: string, body?: object) => {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> };
  };

  /** Starts the server and resolves once `/health` answers. */
  async function boot() {
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: env(),
      stdio: 'ignore',
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
  }

  async function killHard() {
    const running = child;
    if (!running || exited(running)) return;
    const gone = new Promise((r) => running.once('exit', r));
    running.kill('SIGKILL');
    await gone;
  }

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'balcao-crash-'));
    port = await freePort();
    db = new pg.Client({ connectionString: env().DATABASE_URL });
  });

  afterAll(async () => {
    await killHard();
    await db.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(`every stored reply reaches the phone once and in order, over ${RUNS} kills`, async () => {
    await boot();
    await db.connect();
    const login = await fetch(`http://127.0.0.1:${port}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'crash@test.local', password: 'crash-test-password' }),
    });
    const session = (await login.json()) as { token: string; user: { id: number } };
    token = session.token;
    const connection = await api('POST', '/whatsapp', { name: 'Crash', provider: 'sandbox' });
    const whatsappId = connection.json.id as number;
    await api('POST', `/whatsappsession/${whatsappId}`);
    expect((await api('POST', `/sandbox/${whatsappId}/scan`)).status).toBe(200);

    const numbers = Array.from({ length: TICKETS }, (_, i) => `5511966${String(i).padStart(6, '0')}`);
    const ticketIds: number[] = [];
    for (const number of numbers) {
      await api('POST', `/sandbox/${whatsappId}/inbound`, { number, body: 'oi' });
      const list = await api('GET', `/tickets?searchParam=${number}`);
      const id = (list.json.tickets as { id: number }[])[0].id;
      await api('PUT', `/tickets/${id}`, { status: 'open', userId: session.user.id });
      ticketIds.push(id);
    }

    const accepted = new Set<string>();
    for (let run = 0; run < RUNS; run++) {
      // Kill once a varying share of this run's replies has been accepted.
      const killAfter = Math.floor(((run + 1) / (RUNS + 1)) * TICKETS * REPLIES_PER_TICKET);
      let answered = 0;
      let killing: Promise<void> | undefined;
      await Promise.all(
        ticketIds.map(async (ticketId, t) => {
          for (let i = 0; i < REPLIES_PER_TICKET; i++) {
            const body = `reply ${run}-${t}-${i}`;
            const sent = await api('POST', `/messages/${ticketId}`, { body }).catch(() => null);
            if (!sent) return;
            expect(sent.status).toBe(201);
            accepted.add(body);
            if (++answered === killAfter) killing = killHard();
          }
        }),
      );
      await killing;
      await killHard();
      await boot();
    }

    // After the last restart: everything unsent goes out at once.
    const restarted = Date.now();
    const deadline = restarted + 60_000;
    for (;;) {
      const { rows } = await db.query<{ n: string }>(
        `select count(*) as n from messages where from_me and send_status in ('pending', 'sending')`,
      );
      if (rows[0].n === '0') break;
      if (Date.now() > deadline) throw new Error(`${rows[0].n} replies still unsent a minute after the restart`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const drainedMs = Date.now() - restarted;

    let duplicates = 0;
    let stored = 0;
    for (const [t, ticketId] of ticketIds.entries()) {
      const replies = await db.query<{ body: string; send_status: string }>(
        `select body, send_status from messages where ticket_id = $1 and from_me and body like 'reply %' order by id`,
        [ticketId],
      );
      const phone = await db.query<{ body: string }>(
        `select body from sandbox_outbox where whatsapp_id = $1 and number = $2 and body like 'reply %' order by id`,
        [whatsappId, numbers[t]],
      );
      const bodies = replies.rows.map((r) => r.body);
      stored += bodies.length;
      expect(replies.rows.every((r) => r.send_status === 'sent')).toBe(true);
      // In order, each at least once, nothing the server did not store.
      expect([...new Set(phone.rows.map((r) => r.body))]).toEqual(bodies);
      duplicates += phone.rows.length - bodies.length;
    }
    for (const body of accepted) {
      const { rows } = await db.query(`select 1 from messages where body = $1`, [body]);
      expect(rows.length, `accepted reply ${body} is stored`).toBe(1);
    }
    console.log(
      `outbound crash test: ${RUNS} kills, ${accepted.size} replies accepted, ${stored} stored, ` +
        `${duplicates} sent twice, backlog drained ${drainedMs} ms after the last restart`,
    );
    // A send repeated after a kill carries the message's own id, which the phone shows once.
    expect(duplicates).toBe(0);
  }, 300_000);
});
