import { realpathSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { ensurePlatform } from '../../apps/server/src/db/seed.js';
import { memoryRateLimiter } from '../../apps/server/src/platform/auth/rate-limiter.js';
import { createTokenService } from '../../apps/server/src/platform/auth/tokens.js';
import { type Jobs, noJobs } from '../../apps/server/src/platform/jobs/jobs.js';
import { createRealtime } from '../../apps/server/src/platform/realtime/realtime.js';
import { createMessaging } from '../../apps/server/src/runtime.js';
import { ADMIN, benchDatabase } from './setup.js';
import { hostCpu } from './stats.js';

/**
 * Issue 16's inbound figure: messages from many contacts (new ones, and known ones with open,
 * pending, queued and closed tickets) through the whole path — `POST /sandbox/{id}/inbound` as the
 * admin, the route, the batched store, the announcements and the inbound automations (rating,
 * holiday, business hours, AI prompt, integration, queue menu) — `concurrency` requests in flight on
 * one connection, as a typical company has it: a greeting and four queues (so the menu runs),
 * business hours on (open, so they are checked and let the menu through) and ratings on. Printed
 * beside the raw baseline of single-row INSERTs at the same concurrency, with the statements per
 * message counted at the driver (every `pg.Client#query`, BEGIN and COMMIT included).
 *
 * The automatic messages' send job is counted and dropped (the outbox is not part of this figure).
 * `node --import tsx bench/src/inbound.ts` runs it alone; `BENCH_STATEMENTS=1` also prints the most
 * frequent statements of the measured run.
 */
export interface InboundBenchOptions {
  /** Messages measured; 5,000 by default (a fifth of that on PGlite). */
  messages?: number;
  /** Requests in flight; 32 by default. */
  concurrency?: number;
  /** Known contacts, each with a ticket on the connection; 2,000 by default. */
  knownContacts?: number;
  /** Contacts with no row yet; 1,000 by default. */
  newContacts?: number;
  /**
   * Messages sent before the measured run, on contacts of their own; 3,000 by default (300 on
   * PGlite). V8 optimises a function only after thousands of calls: after 300, the measured run still
   * ran much of the path unoptimised while TurboFan compiled it on the core PostgreSQL shares (0.93
   * against 0.68 ms of CPU per message), which is a server's first seconds, not a running server.
   */
  warmUp?: number;
  /** Prints the figures (true by default). */
  print?: boolean;
}

export interface InboundFigures {
  database: 'pglite' | 'postgres';
  messages: number;
  concurrency: number;
  /** Messages per second through the sandbox route, automations on. */
  rate: number;
  /** Driver statements per message over the measured run. */
  statementsPerMessage: number;
  /** Automatic messages (menus, greetings) the automations queued during the run. */
  automaticMessages: number;
  /** CPU time of this process (the server's, as requests are injected) per message, ms. */
  cpuMsPerMessage: number;
  /** CPU time of the PostgreSQL processes per message, ms (0 when it runs on another host). */
  databaseCpuMsPerMessage: number;
  /** Share of the machine's CPU (all cores) in use during the run. */
  machineBusy: number;
  /** Raw single-row INSERTs per second at the same concurrency. */
  rawRate: number;
  rawStatementsPerRow: number;
  /** CPU time of the PostgreSQL processes per raw INSERT, ms. */
  rawDatabaseCpuMsPerRow: number;
  /** The most frequent statements of the run (their first 160 characters) with their count per message. */
  topStatements: { sql: string; perMessage: number }[];
  /** Delivery receipts per second through `POST /sandbox/{id}/ack`, two per measured message (2, then 3). */
  receiptRate: number;
  /** Driver statements per receipt (the sandbox phone's own update of its copy included). */
  statementsPerReceipt: number;
  /** CPU time of this process per receipt, ms. */
  cpuMsPerReceipt: number;
  /** Raw single-row UPDATEs of a message's ack by its provider id per second, at the same concurrency. */
  rawReceiptRate: number;
}

/** Every statement that reaches PostgreSQL through node-postgres: pool queries and transaction clients alike. */
const counter = { on: false, total: 0, byText: new Map<string, number>() };
let patched = false;
function countStatements() {
  if (patched) return;
  patched = true;
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    if (counter.on) {
      counter.total += 1;
      const q = args[0];
      const text = typeof q === 'string' ? q : ((q as { text?: string } | undefined)?.text ?? '?');
      // Keyed by the text as sent (a named statement's is one string, its hash kept): normalising
      // every statement's text here cost the measured process about 5% of what it allocated.
      counter.byText.set(text, (counter.byText.get(text) ?? 0) + 1);
    }
    return original.apply(this, args);
  };
}
/** The statements sent most, their texts cut to 160 characters (texts that differ only beyond them add up). */
function topStatements(byText: Map<string, number>, messages: number) {
  const byStart = new Map<string, number>();
  for (const [text, n] of byText) {
    const start = text.replace(/\s+/g, ' ').slice(0, 160);
    byStart.set(start, (byStart.get(start) ?? 0) + n);
  }
  return [...byStart]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 40)
    .map(([sql, n]) => ({ sql, perMessage: n / messages }));
}

function counted() {
  return {
    start() {
      counter.total = 0;
      counter.byText = new Map();
      counter.on = true;
    },
    stop() {
      counter.on = false;
      return { total: counter.total, byText: counter.byText };
    },
  };
}

/** `n` runs, `concurrency` at a time; their rate per second. */
async function inFlight(n: number, concurrency: number, run: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await run(next++);
    }),
  );
  return n / ((performance.now() - start) / 1000);
}

const openAllDay = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => ({
  weekday: d,
  weekdayEn: d,
  startTime: '00:00',
  endTime: '',
}));

/** `BENCH_CPU_PROFILE=file.cpuprofile`: a CPU profile of the measured run only (open it in Chrome's DevTools). */
async function profiler(file: string | undefined): Promise<{ stop(): Promise<void> }> {
  if (!file) return { stop: async () => {} };
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

export async function benchInbound(opts: InboundBenchOptions = {}): Promise<InboundFigures> {
  countStatements();
  const print = opts.print ?? true;
  const { database, cleanup } = await benchDatabase('inbound');
  const small = database.kind === 'pglite';
  const N = opts.messages ?? (small ? 1_000 : 5_000);
  const WARM = opts.warmUp ?? (small ? 300 : 3_000);
  const C = opts.concurrency ?? 32;
  const KNOWN = opts.knownContacts ?? 2_000;
  const NEW = opts.newContacts ?? 1_000;
  const q = (text: string, values?: unknown[]) => database.query(text, values);
  const dataDir = `/tmp/balcao-bench-${process.pid}-inbound-files`;

  // The app as benchApp builds it, except that the messaging runtime gets a job queue: the automations run.
  let automaticMessages = 0;
  const jobs: Jobs = {
    ...noJobs,
    send: async () => {
      automaticMessages += 1;
      return null;
    },
  };
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOGIN_LIMIT_IP: '100000' });
  await ensurePlatform(database.db, ADMIN);
  const log = pino({ level: 'silent' });
  const realtime = createRealtime({ corsOrigin: [], log });
  const { storage, channels } = createMessaging({ config, database, realtime, log, jobs });
  const app = await buildApp({
    config,
    database,
    jobs,
    limiter: memoryRateLimiter(60_000),
    realtime,
    storage,
    channels,
    tokens: createTokenService({
      accessSecret: 'bench-access-secret-0000',
      refreshSecret: 'bench-refresh-secret-000',
      accessTtl: '1h',
      refreshTtlDays: 1,
    }),
  });

  try {
    const login = await app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
    if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
    const headers = { authorization: `Bearer ${login.json().token}` };

    // The company: four queues with greetings, ten agents, ratings on, business hours on (open all day).
    const queueIds = (
      await q(
        `insert into queues (company_id, name, color, greeting_message, order_queue)
         select 1, n, c, 'Você está na fila ' || n || ', {{firstName}}.', o
         from (values ('Vendas', '#00aa00', 1), ('Suporte', '#0000aa', 2), ('Financeiro', '#aa0000', 3), ('Outros', '#aaaa00', 4)) v(n, c, o)
         returning id`,
      )
    ).rows.map((r) => r.id as number);
    const hash = (await q(`select password_hash from users where id = 1`)).rows[0].password_hash as string;
    await q(
      `insert into users (company_id, name, email, password_hash, profile)
       select 1, 'Agente ' || g, 'agente' || g || '@bench.test', $1, 'user' from generate_series(1, 10) g`,
      [hash],
    );
    await q(`insert into user_queues (user_id, queue_id)
      select u.id, q.id from users u join queues q on q.company_id = 1 where u.profile = 'user' and (u.id + q.id) % 2 = 0`);
    await q(`insert into settings (company_id, key, value) values (1, 'userRating', 'enabled'), (1, 'scheduleType', 'company')
      on conflict do nothing`);
    await q(`update companies set schedules = $1::jsonb where id = 1`, [JSON.stringify(openAllDay)]);

    const created = await app.inject({
      method: 'POST',
      url: '/whatsapp',
      headers,
      payload: {
        name: 'Atendimento',
        provider: 'sandbox',
        isDefault: true,
        greetingMessage: '{{ms}}, {{firstName}}! Bem-vindo à Loja. Escolha uma opção:',
        complationMessage: 'Atendimento encerrado. Obrigado!',
        outOfHoursMessage: 'Estamos fora do horário de atendimento.',
        ratingMessage: 'Conte como foi o atendimento.',
        queueIds,
      },
    });
    if (created.statusCode !== 201) throw new Error(`POST /whatsapp: ${created.statusCode} ${created.body}`);
    const whatsappId = created.json().id as number;
    await app.inject({ method: 'POST', url: `/whatsappsession/${whatsappId}`, headers });
    const scan = await app.inject({ method: 'POST', url: `/sandbox/${whatsappId}/scan`, headers });
    if (scan.statusCode !== 200) throw new Error(`scan: ${scan.statusCode} ${scan.body}`);

    // Known contacts, each with a ticket: 40% open with an agent, 20% waiting in a queue, 10% at the
    // menu (pending, no queue), 30% closed (their message reopens it and the menu starts again).
    await q(
      `insert into contacts (company_id, name, number, profile_refreshed_at)
       select 1, 'Cliente ' || g, (5511900000000 + g)::text, now() from generate_series(1, $1) g`,
      [KNOWN],
    );
    await q(
      `insert into tickets (company_id, contact_id, whatsapp_id, queue_id, user_id, status, amount_used_bot_queues, last_message, updated_at, created_at)
       select 1, c.id, $1, case when c.id % 10 < 6 then q.id end, case when c.id % 10 < 4 then u.id end,
         case when c.id % 10 < 7 then (case when c.id % 10 < 4 then 'open' else 'pending' end) else 'closed' end,
         case when c.id % 10 = 6 then 1 else 0 end, 'Mensagem anterior', now() - interval '1 hour', now() - interval '1 day'
       from contacts c
       join lateral (select id from queues where company_id = 1 order by id offset (c.id % 4) limit 1) q on true
       join lateral (select id from users where company_id = 1 and profile = 'user' order by id offset (c.id % 10) limit 1) u on true
       where c.company_id = 1`,
      [whatsappId],
    );
    await q(`insert into ticket_trakings (company_id, ticket_id, whatsapp_id, user_id, queued_at, started_at, finished_at)
      select company_id, id, whatsapp_id, user_id, created_at, case when user_id is not null then created_at end,
        case when status = 'closed' then updated_at end
      from tickets`);

    const numbers = KNOWN + NEW;
    const numberOf = (i: number, offset = 0) => String(5511900000000 + 1 + ((i * 7919 + offset) % numbers));
    // Every third message answers a menu (a queue's number), the others are plain text.
    const bodyOf = (i: number) => (i % 3 === 0 ? String(1 + (i % 4)) : `Olá, preciso de ajuda com o pedido ${i}`);
    const send = (providerId: string, number: string, body: string) =>
      app
        .inject({
          method: 'POST',
          url: `/sandbox/${whatsappId}/inbound`,
          headers,
          payload: { number, name: `Cliente ${number.slice(-5)}`, body, providerId },
        })
        .then((res) => {
          if (res.statusCode !== 200) throw new Error(`inbound: ${res.statusCode} ${res.body}`);
        });

    // Warm-up on contacts of their own, new ones first (see `warmUp`). Then the statistics a running
    // server has: autovacuum analyzes a table within a minute of its first 50 changes, and the
    // messages table was still empty.
    await inFlight(WARM, C, (i) => send(`WARM${i}`, String(5511800000000 + (i % 1_000)), bodyOf(i)));
    await q(`vacuum analyze`).catch(() => undefined);
    automaticMessages = 0;

    const count = counted();
    const profile = await profiler(process.env.BENCH_CPU_PROFILE);
    count.start();
    const cpu = process.cpuUsage();
    const host = hostCpu();
    const rate = await inFlight(N, C, (i) => send(`BENCH${i}`, numberOf(i), bodyOf(i)));
    const cpuUsed = process.cpuUsage(cpu);
    const hostAfter = hostCpu();
    const run = count.stop();
    await profile.stop();
    const stored = Number((await q(`select count(*) n from messages where provider_id like 'BENCH%'`)).rows[0].n);
    if (stored !== N) throw new Error(`${stored} of ${N} messages stored`);

    await q(
      `create table raw_inbound (id bigserial primary key, company_id int, provider_id text, body text, created_at timestamptz default now())`,
    );
    count.start();
    const rawHost = hostCpu();
    const rawRate = await inFlight(N, C, (i) =>
      q(`insert into raw_inbound (company_id, provider_id, body) values (1, $1, $2)`, [`RAW${i}`, `hello ${i}`]),
    );
    const raw = count.stop();
    const rawDatabaseCpu = (hostCpu().postgres - rawHost.postgres) / N;

    // Receipts: the measured messages become messages we sent, on the phone too, and each is delivered
    // then read through the sandbox route (the phone's copy moves, then ours and the campaign
    // recipient it might be), `C` at a time.
    await q(`update messages set from_me = true, ack = 1 where provider_id like 'BENCH%'`);
    await q(
      `insert into sandbox_outbox (company_id, whatsapp_id, number, provider_id, body)
       select 1, $1, c.number, m.provider_id, m.body from messages m join contacts c on c.id = m.contact_id
       where m.provider_id like 'BENCH%'`,
      [whatsappId],
    );
    const ack = (i: number) =>
      app
        .inject({
          method: 'POST',
          url: `/sandbox/${whatsappId}/ack`,
          headers,
          payload: { providerId: `BENCH${i % N}`, ack: i < N ? 2 : 3 },
        })
        .then((res) => {
          if (res.statusCode !== 200) throw new Error(`ack: ${res.statusCode} ${res.body}`);
        });
    count.start();
    const receiptCpu = process.cpuUsage();
    const receiptRate = await inFlight(2 * N, C, ack);
    const receiptCpuUsed = process.cpuUsage(receiptCpu);
    const receipts = count.stop();
    const rawReceiptRate = await inFlight(2 * N, C, (i) =>
      q(`update messages set ack = $2 where company_id = 1 and whatsapp_id = $3 and provider_id = $1 and ack < $2`, [
        `BENCH${i % N}`,
        i < N ? 4 : 5,
        whatsappId,
      ]),
    );

    const figures: InboundFigures = {
      database: database.kind,
      messages: N,
      concurrency: C,
      rate,
      statementsPerMessage: run.total / N,
      automaticMessages,
      cpuMsPerMessage: (cpuUsed.user + cpuUsed.system) / 1000 / N,
      databaseCpuMsPerMessage: (hostAfter.postgres - host.postgres) / N,
      machineBusy: (hostAfter.busy - host.busy) / (hostAfter.busy - host.busy + hostAfter.idle - host.idle || 1),
      rawRate,
      rawStatementsPerRow: raw.total / N,
      rawDatabaseCpuMsPerRow: rawDatabaseCpu,
      topStatements: topStatements(run.byText, N),
      receiptRate,
      statementsPerReceipt: receipts.total / (2 * N),
      cpuMsPerReceipt: (receiptCpuUsed.user + receiptCpuUsed.system) / 1000 / (2 * N),
      rawReceiptRate,
    };
    if (print) {
      // PGlite runs in this process, not through node-postgres: its statements are not counted.
      const statements =
        database.kind === 'postgres' ? `, ${figures.statementsPerMessage.toFixed(1)} statements/msg` : '';
      const databaseCpu =
        figures.databaseCpuMsPerMessage > 0 ? `, PostgreSQL ${figures.databaseCpuMsPerMessage.toFixed(2)} ms` : '';
      const counts = `${statements}, ${figures.cpuMsPerMessage.toFixed(2)} ms CPU/msg${databaseCpu}, machine ${(100 * figures.machineBusy).toFixed(0)}% busy`;
      console.log(
        `inbound via sandbox route, automations on ${rate.toFixed(0).padStart(7)} msg/s${counts}   (baseline raw single-row INSERT ${rawRate.toFixed(0)} rows/s, PostgreSQL ${rawDatabaseCpu.toFixed(2)} ms CPU/row, ${C} concurrent; ${N} messages, ${automaticMessages} automatic replies)`,
      );
      console.log(`target (issue 16): inbound with automations ≥ 1000 msg/s → ${rate.toFixed(0)}`);
      const receiptStatements =
        database.kind === 'postgres' ? `, ${figures.statementsPerReceipt.toFixed(1)} statements/receipt` : '';
      console.log(
        `receipts via sandbox route (2, then 3) ${receiptRate.toFixed(0).padStart(7)} acks/s${receiptStatements}, ${figures.cpuMsPerReceipt.toFixed(2)} ms CPU/receipt   (baseline raw single-row UPDATE ${rawReceiptRate.toFixed(0)} rows/s, ${C} concurrent; ${2 * N} receipts)`,
      );
      if (process.env.BENCH_STATEMENTS)
        for (const s of figures.topStatements) console.log(`${s.perMessage.toFixed(3).padStart(8)}  ${s.sql}`);
    }
    return figures;
  } finally {
    await app.close();
    await cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
if (isMain) await benchInbound();
