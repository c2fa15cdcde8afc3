import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { SessionReply } from '@balcao/shared';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { io, type Socket } from 'socket.io-client';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import type { BaileysOptions } from '../src/channels/baileys/baileys.channel.js';
import { type Config, loadConfig } from '../src/config.js';
import { createPglite, type Database, fromPglite, fromPostgres } from '../src/db/client.js';
import { ensurePlatform } from '../src/db/seed.js';
import { defaultOutboxPolicy, type OutboxPolicy } from '../src/modules/messages/messages.outbox.js';
import { memoryRateLimiter, redisRateLimiter } from '../src/platform/auth/rate-limiter.js';
import { createTokenService } from '../src/platform/auth/tokens.js';
import type { App, AppDeps } from '../src/platform/http/types.js';
import { noJobs, startJobs } from '../src/platform/jobs/jobs.js';
import { createRealtime } from '../src/platform/realtime/realtime.js';
import { connectRedis } from '../src/platform/realtime/redis-clients.js';
import { createMessaging, startWorkers } from '../src/runtime.js';

export const SUPER = { email: 'super@test.local', password: 'super-secret-1' };

/** A migrated database of its own: a PGlite copy, or a PostgreSQL database cloned from the template. */
export async function openTestDatabase(): Promise<Database> {
  const template = inject('pgTemplate');
  if (!template) {
    const tar = await readFile(inject('pgliteSnapshot'));
    return fromPglite(await createPglite(undefined, { loadDataDir: new Blob([tar]) }));
  }
  const url = process.env.DATABASE_URL as string;
  const name = `balcao_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = fromPostgres(target.toString(), 5);
  return {
    ...database,
    close: async () => {
      await database.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface TestServer {
  app: App;
  deps: AppDeps;
  /** Base URL once `listen()` has been called (socket tests). */
  url: string;
  listen(): Promise<string>;
  close(): Promise<void>;
  /** One API call as `session` (no token without one). */
  call(method: Method, url: string, session?: Session, payload?: object): Promise<LightMyRequestResponse>;
}

/**
 * A server on its own database and media folder. `jobs: true` starts pg-boss and the workers
 * (outbound sending); without it jobs are accepted and dropped. Two instances of one deployment:
 * the same `database` (left open on close: its opener closes it) and the same `redisKey`.
 */
export async function createTestServer(
  env: Record<string, string> = {},
  opts: {
    jobs?: boolean;
    now?: () => Date;
    database?: Database;
    redisKey?: string;
    beta?: BaileysOptions;
    /** The outbox's retry and sweep settings (with `jobs`). */
    outbox?: Partial<OutboxPolicy>;
  } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'balcao-test-'));
  const config: Config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...env });
  const database = opts.database ?? (await openTestDatabase());
  await ensurePlatform(database.db, SUPER);
  const windowMs = config.LOGIN_LIMIT_WINDOW_SECONDS * 1000;
  const log = pino({ level: 'silent' });
  const clients = process.env.REDIS_URL ? await connectRedis(process.env.REDIS_URL, log) : undefined;
  // A per-server prefix keeps parallel test files from sharing Redis counters and Socket.IO
  // channels (company and user ids repeat across test databases).
  const prefix = opts.redisKey ?? randomBytes(4).toString('hex');
  const realtime = createRealtime({
    corsOrigin: [config.FRONTEND_URL],
    redis: clients && { ...clients, key: `socket.io-${prefix}` },
    log,
  });
  const jobs = opts.jobs ? await startJobs(database, log) : noJobs;
  const { storage, channels } = createMessaging({
    config,
    database,
    realtime,
    log,
    jobs,
    now: opts.now,
    beta: opts.beta,
  });
  const deps: AppDeps = {
    config,
    database,
    jobs,
    realtime,
    storage,
    channels,
    tokens: createTokenService({
      accessSecret: 'test-access-secret-0123456789',
      refreshSecret: 'test-refresh-secret-0123456789',
      accessTtl: config.ACCESS_TOKEN_TTL,
      refreshTtlDays: config.REFRESH_TOKEN_TTL_DAYS,
    }),
    limiter: clients ? redisRateLimiter(clients.pub, windowMs, prefix) : memoryRateLimiter(windowMs),
  };
  const app = await buildApp(deps);
  const workers = opts.jobs
    ? await startWorkers(deps, log, { outbox: { ...defaultOutboxPolicy, ...opts.outbox } })
    : undefined;
  workers?.startOutbox();
  const server: TestServer = {
    app,
    deps,
    url: '',
    call: (method, url, session, payload) => app.inject({ method, url, payload, headers: session?.headers ?? {} }),
    async listen() {
      await app.listen({ port: 0, host: '127.0.0.1' });
      server.url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      return server.url;
    },
    async close() {
      await workers?.stop();
      await channels.stopAll();
      await app.close();
      await jobs.stop();
      // quit, not disconnect: the adapter's last (unawaited) unsubscribe/publish commands complete
      // instead of rejecting with "Connection is closed".
      await Promise.all([clients?.pub.quit(), clients?.sub.quit()]);
      if (!opts.database) await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

export interface Session {
  token: string;
  cookie: string;
  user: SessionReply['user'];
  headers: { authorization: string };
}

export async function login(server: TestServer, email: string, password: string, ip = '127.0.0.1'): Promise<Session> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email, password },
    remoteAddress: ip,
  });
  if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as SessionReply;
  const cookie = res.cookies.find((c) => c.name === 'jrt');
  return {
    token: body.token,
    user: body.user,
    cookie: `jrt=${cookie?.value}`,
    headers: { authorization: `Bearer ${body.token}` },
  };
}

export interface Tenant {
  companyId: number;
  admin: Session;
  user: Session;
  userPassword: string;
}

let tenantSeq = 0;

/** A company on a plan of its own, with an admin and a plain user, created through the API as the super user. */
export async function createTenant(
  server: TestServer,
  opts: { plan?: Record<string, unknown>; dueDate?: string | null } = {},
): Promise<Tenant> {
  const su = await login(server, SUPER.email, SUPER.password);
  const n = ++tenantSeq;
  const tag = `${n}${randomBytes(3).toString('hex')}`;
  const plan = await server.app.inject({
    method: 'POST',
    url: '/plans',
    headers: su.headers,
    payload: { name: `Plan ${tag}`, users: 10, connections: 5, queues: 5, value: 99.9, ...opts.plan },
  });
  if (plan.statusCode !== 201) throw new Error(`plan: ${plan.body}`);
  const email = `admin-${tag}@tenant.test`;
  const password = 'admin-pass';
  const company = await server.app.inject({
    method: 'POST',
    url: '/companies',
    headers: su.headers,
    payload: { name: `Company ${tag}`, email, planId: plan.json().id, password, dueDate: opts.dueDate ?? null },
  });
  if (company.statusCode !== 201) throw new Error(`company: ${company.body}`);
  const admin = await login(server, email, password);
  const userPassword = 'user-pass';
  const created = await server.app.inject({
    method: 'POST',
    url: '/users',
    headers: admin.headers,
    payload: { name: `Agent ${tag}`, email: `agent-${tag}@tenant.test`, password: userPassword, profile: 'user' },
  });
  if (created.statusCode !== 201) throw new Error(`user: ${created.body}`);
  const user = await login(server, created.json().email, userPassword);
  return { companyId: company.json().id, admin, user, userPassword };
}

/** A Socket.IO client authenticated with the session's token; resolves once connected. */
export function connectSocket(server: TestServer, token?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(server.url, {
      auth: token ? { token } : {},
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** Waits for one event, failing after `ms`. */
export function nextEvent<T = unknown>(socket: Socket, event: string, ms = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/** Waits for the first `event` whose payload satisfies `match`, failing after `ms`. */
export function eventWhere<T = unknown>(
  socket: Socket,
  event: string,
  match: (payload: T) => boolean,
  ms = 3000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const listener = (payload: T) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no matching ${event} within ${ms} ms`));
    }, ms);
    socket.on(event, listener);
  });
}

/** Every event the socket receives from now on, to assert what it must never see. */
export function recordEvents(socket: Socket): { event: string; payload: unknown }[] {
  const seen: { event: string; payload: unknown }[] = [];
  socket.onAny((event: string, payload: unknown) => {
    seen.push({ event, payload });
  });
  return seen;
}
