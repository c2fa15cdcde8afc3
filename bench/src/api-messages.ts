import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import pino from 'pino';
import { apiTokenHash } from '../../apps/server/src/modules/whatsapp/whatsapp.service.js';
import { startJobs } from '../../apps/server/src/platform/jobs/jobs.js';
import { benchApp, benchDatabase } from './setup.js';
import { line, percentiles, timeEach } from './stats.js';

/**
 * The external message API's figure (DOMAIN §10): `POST /api/messages/send`, from the request to the
 * message stored as pending and its send job queued (pg-boss), at a steady 50 requests a second for
 * 10 s — target p95 ≤ 20 ms on PostgreSQL — beside a raw single-row INSERT of a message at the same
 * rate. The company already has 100,000 contacts with a ticket each (a tenth on PGlite); half the
 * calls write to one of them (70% of those tickets are closed: a new ticket opens), half to a new
 * number; half carry an `Idempotency-Key`. Ten connections share the calls, as ten integrations would.
 * `npm run bench -- api` runs only this one.
 */
const RATE = 50;
const SECONDS = 10;
const WARMUP = 50;
const CONNECTIONS = 10;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const maxOf = (samples: number[]) => samples.reduce((m, s) => Math.max(m, s), 0);

const { database, url, cleanup } = await benchDatabase('api');
const CONTACTS = database.kind === 'postgres' ? 100_000 : 10_000;
const q = (text: string, values?: unknown[]) => database.query(text, values);
const log = pino({ level: 'silent' });
const jobs = await startJobs(database, log, url);
const dataDir = `/tmp/balcao-bench-${process.pid}-api-files`;
const { app, channels } = await benchApp(database, dataDir, { jobs });

/** Raw SQL on one connection of its own (PGlite has only one anyway). */
const raw = url ? new pg.Client({ connectionString: url }) : undefined;
await raw?.connect();
const rq = (text: string, values?: unknown[]) => (raw ? raw.query(text, values) : q(text, values));

const t0 = performance.now();
const tokens = Array.from({ length: CONNECTIONS }, () => randomBytes(32).toString('base64url'));
const whatsappIds: number[] = [];
for (const [i, token] of tokens.entries()) {
  const { rows } = await q(
    `insert into whatsapps (company_id, name, provider, status, is_default, session, token_hash)
     values (1, $1, 'sandbox', 'CONNECTED', $2, 'sandbox:paired', $3) returning id`,
    [`API ${i + 1}`, i === 0, apiTokenHash(token)],
  );
  whatsappIds.push(rows[0].id as number);
}
for (const id of whatsappIds) await channels.start(1, id);
await q(
  `insert into contacts (company_id, name, number)
   select 1, 'Contato ' || g, (5511900000000 + g)::text from generate_series(1, $1) g`,
  [CONTACTS],
);
await q(
  `insert into tickets (company_id, contact_id, whatsapp_id, status, last_message, updated_at, created_at)
  select 1, c.id, $1::int, case when c.id % 10 < 7 then 'closed' when c.id % 10 < 9 then 'open' else 'pending' end,
    'Mensagem ' || c.id, now() - (c.id || ' minutes')::interval, now() - (c.id || ' minutes')::interval
  from contacts c where c.company_id = 1`,
  [whatsappIds[0]],
);
await q(`insert into messages (company_id, ticket_id, contact_id, whatsapp_id, provider_id, body, from_me, ack, read, send_status, created_at)
  select 1, t.id, t.contact_id, t.whatsapp_id, 'SEED' || t.id || '-' || g, 'Mensagem ' || g || ' do pedido ' || t.id,
    g % 2 = 0, 3, true, 'sent', t.created_at + (g || ' seconds')::interval
  from tickets t cross join generate_series(1, 3) g`);
await q('vacuum analyze');
console.log(
  `\nAPI bench on ${database.kind}: ${CONTACTS} contacts and tickets, ${CONTACTS * 3} messages, ${CONNECTIONS} connections with a token (seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s)`,
);

/** Call n: an existing contact (even n) or a new number (odd n), every other pair with an Idempotency-Key. */
function request(n: number) {
  const number = n % 2 === 0 ? String(5511900000000 + 1 + ((n * 7919) % CONTACTS)) : String(5521800000000 + n + 10);
  const keyed = n % 4 < 2;
  return {
    keyed,
    options: {
      method: 'POST' as const,
      url: '/api/messages/send',
      headers: {
        authorization: `Bearer ${tokens[n % CONNECTIONS]}`,
        ...(keyed ? { 'idempotency-key': `bench-${n}` } : {}),
      },
      payload: { number, body: `Seu pedido ${n} foi confirmado e sai hoje para entrega.` },
    },
  };
}

async function send(n: number): Promise<number> {
  const { options } = request(n);
  const t = performance.now();
  const res = await app.inject(options);
  const ms = performance.now() - t;
  if (res.statusCode !== 201) throw new Error(`POST /api/messages/send: ${res.statusCode} ${res.body}`);
  return ms;
}

// Warm-up (JIT, pool connections), one after the other, on numbers the run does not use.
for (let n = 0; n < WARMUP; n++) await send(1_000_000 + n);

/** The steady rate: call n leaves at start + n/RATE s, whether or not earlier ones are answered. */
const COUNT = RATE * SECONDS;
const replies: Promise<number>[] = [];
const loadBefore = load();
const start = performance.now();
for (let n = 0; n < COUNT; n++) {
  const wait = start + (n * 1000) / RATE - performance.now();
  if (wait > 0) await sleep(wait);
  replies.push(send(n));
}
const times = await Promise.all(replies);
const elapsed = (performance.now() - start) / 1000;
const loadAfter = load();

const stored = (
  await q(
    `select count(*)::int n, count(*) filter (where send_status = 'pending')::int pending
     from messages where data->>'source' = 'api'`,
  )
).rows[0] as { n: number; pending: number };
const queued = (await q(`select count(*)::int n from pgboss.job where name = 'messages.send'`)).rows[0].n as number;

/** Baseline: one message row, as a bare INSERT, at the same steady rate. */
const ticket = (await q(`select id, contact_id from tickets where status <> 'closed' limit 1`)).rows[0] as {
  id: number;
  contact_id: number;
};
const rawInsert = (n: number) =>
  rq(
    `insert into messages (company_id, ticket_id, contact_id, whatsapp_id, body, from_me, read, send_status, data)
     values (1, $1, $2, $3, $4, true, true, 'pending', '{"source":"raw"}') returning id`,
    [ticket.id, ticket.contact_id, whatsappIds[0], `Seu pedido ${n} foi confirmado e sai hoje para entrega.`],
  );
await timeEach(WARMUP, rawInsert);
const rawReplies: Promise<number>[] = [];
const rawStart = performance.now();
for (let n = 0; n < COUNT; n++) {
  const wait = rawStart + (n * 1000) / RATE - performance.now();
  if (wait > 0) await sleep(wait);
  const t = performance.now();
  rawReplies.push(rawInsert(n).then(() => performance.now() - t));
}
const rawTimes = await Promise.all(rawReplies);

const keyed = times.filter((_, n) => request(n).keyed);
const plain = times.filter((_, n) => !request(n).keyed);
const p95 = percentiles(times).p95;
console.log(
  `api: ${COUNT} sends in ${elapsed.toFixed(1)} s (${(COUNT / elapsed).toFixed(1)}/s), load ${loadBefore} → ${loadAfter}`,
);
console.log(`${line('POST /api/messages/send (50/s)', times, rawTimes)}  max ${maxOf(times).toFixed(2)} ms`);
console.log(line('  with Idempotency-Key', keyed));
console.log(line('  without', plain));
console.log(
  `stored ${stored.n} API messages (${stored.pending} pending), ${queued} send jobs queued; target p95 ≤ 20 ms: ${p95 <= 20 ? 'met' : 'NOT met'}`,
);

await app.close();
await jobs.stop();
await raw?.end();
await cleanup();
