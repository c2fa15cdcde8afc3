import { createHash } from 'node:crypto';
import type pg from 'pg';
import { createInboundPipeline } from '../../apps/server/src/inbound/handle-inbound.js';
import { countStatements, recordStatements, type SentStatement } from '../../apps/server/test/count-statements.js';
import { ADMIN, benchApp, benchDatabase } from './setup.js';
import { line, percentiles, timeEach, timePaired } from './stats.js';

/**
 * The tickets issue's scale figures: one company with 100k contacts, 100k tickets and about 1M
 * messages (1 to 19 per ticket) across 10 queues and 50 agents, every status spread over the queues
 * (a tenth of that on PGlite), then the agent's ticket list, a text search, a messages page and the
 * inbound pipeline's rate, each beside raw SQL in the same run and with the SQL statements it takes.
 */
const { database, cleanup } = await benchDatabase('tickets');
const scale = database.kind === 'postgres' ? 1 : 0.1;
const CONTACTS = Math.round(100_000 * scale);
/** Messages per ticket: 1 to 19, 10 on average. */
const PER_TICKET = (ticket: string) => `(${ticket} * 7919) % 19 + 1`;
/** Calls in each latency series, each paired with as many of its raw SQL baseline (`timePaired`). */
const RUNS = 1_000;
/** The dashboard's series, about 20 ms per call. */
const DASHBOARD_RUNS = 200;
/** Calls of each path before the series (about 8 s on PostgreSQL). */
const WARM_UP = 1_000;
const dataDir = `/tmp/balcao-bench-${process.pid}-tickets-files`;
const { app, realtime, storage, log } = await benchApp(database, dataDir);
const q = (text: string, values?: unknown[]) => database.query(text, values);

const t0 = performance.now();
await q(
  `insert into whatsapps (company_id, name, provider, status, is_default) values (1, 'Bench', 'sandbox', 'CONNECTED', true)`,
);
await q(
  `insert into queues (company_id, name, color) select 1, 'Fila ' || g, '#' || lpad(to_hex(g * 100000), 6, '0') from generate_series(1, 10) g`,
);
const hash = (await q(`select password_hash from users where id = 1`)).rows[0].password_hash as string;
await q(
  `insert into users (company_id, name, email, password_hash, profile)
   select 1, 'Agente ' || g, 'agente' || g || '@bench.test', $1, 'user' from generate_series(1, 50) g`,
  [hash],
);
await q(`insert into user_queues (user_id, queue_id)
  select u.id, q.id from users u join queues q on q.company_id = 1
  where u.profile = 'user' and (q.id + u.id) % 10 < 3`);
await q(
  `insert into contacts (company_id, name, number)
   select 1, 'Contato ' || g || ' ' || substr(md5(g::text), 1, 6), (5511000000000 + g)::text from generate_series(1, $1) g`,
  [CONTACTS],
);
await q(`insert into tickets (company_id, contact_id, whatsapp_id, queue_id, user_id, status, last_message, unread_messages, updated_at, created_at)
  select 1, c.id, w.id, q.id,
    case when c.id % 10 < 9 then a.id end,
    case when c.id % 10 < 7 then 'closed' when c.id % 10 < 9 then 'open' else 'pending' end,
    'Mensagem ' || c.id, c.id % 3, now() - (c.id || ' minutes')::interval, now() - (c.id || ' minutes')::interval
  from contacts c
  cross join (select id from whatsapps limit 1) w
  join lateral (select id from queues where company_id = 1 order by id offset (c.id / 10 % 10) limit 1) q on true
  join lateral (select u.id from users u join user_queues uq on uq.user_id = u.id where uq.queue_id = q.id order by u.id offset (c.id % 3) limit 1) a on true`);
// The trigram index is rebuilt after the bulk load, as a migration on a loaded database would.
await q(`drop index messages_body_trgm_idx`);
await q(
  `insert into messages (company_id, ticket_id, contact_id, whatsapp_id, provider_id, body, from_me, ack, read, send_status, created_at)
   select 1, t.id, t.contact_id, t.whatsapp_id, 'SEED' || t.id || '-' || g,
     'Mensagem ' || g || ' do pedido ' || substr(md5((t.id * 100 + g)::text), 1, 10), g % 2 = 0, 3, true, 'sent',
     t.created_at + (g || ' seconds')::interval
   from tickets t cross join generate_series(1, ${PER_TICKET('t.id')}) g`,
);
await q(`create index messages_body_trgm_idx on messages using gin (lower(body) gin_trgm_ops)`);
// One service cycle per ticket, as the product writes them (DOMAIN §4): queued at creation, then for
// the accepted ones a wait of 1–20 min, a first reply 1–7 min later, and for the closed ones 5–94 min of
// support; a quarter of the closed cycles rated, a tenth transferred once. Each contact has one ticket:
// every cycle is a lead.
await q(`insert into ticket_trakings (company_id, ticket_id, whatsapp_id, user_id, queued_at, started_at, wait_seconds,
    first_reply_at, first_reply_seconds, finished_at, support_seconds, rated, rating_at, transfers, transferred_at, lead, created_at)
  select t.company_id, t.id, t.whatsapp_id, t.user_id, t.created_at, s.started, s.wait * 60,
    s.started + s.reply * interval '1 minute', (s.wait + s.reply) * 60,
    s.started + s.support * interval '1 minute', case when t.status = 'closed' then s.support * 60 end,
    t.status = 'closed' and t.id % 4 = 0,
    case when t.status = 'closed' and t.id % 4 = 0 then s.started + (s.support + 1) * interval '1 minute' end,
    (t.id % 10 = 3)::int, case when t.id % 10 = 3 then s.started end, true, t.created_at
  from tickets t
  cross join lateral (select case when t.status <> 'pending' then t.created_at + (t.id % 20 + 1) * interval '1 minute' end as started,
    case when t.status <> 'pending' then t.id % 20 + 1 end as wait, t.id % 7 + 1 as reply,
    case when t.status = 'closed' then t.id % 90 + 5 end as support) s`);
await q(`insert into user_ratings (company_id, ticket_id, user_id, rate, created_at)
  select company_id, ticket_id, user_id, ticket_id % 5 + 1, rating_at from ticket_trakings where rated`);
// As autovacuum leaves a table soon after a bulk load: statistics and the visibility map (index-only counts).
await q('vacuum analyze');
const seeded = (
  await q(
    `select (select count(*) from contacts) c, (select count(*) from tickets) t, (select count(*) from messages) m,
      (select count(*) from ticket_trakings) k, (select count(*) from user_ratings) r`,
  )
).rows[0];
console.log(
  `\nTickets bench on ${database.kind}: ${seeded.c} contacts, ${seeded.t} tickets, ${seeded.m} messages, ${seeded.k} service cycles, ${seeded.r} ratings, 10 queues, 50 agents (seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s)`,
);

const agent = (
  await q(
    `select u.id, array_agg(uq.queue_id) queues from users u join user_queues uq on uq.user_id = u.id where u.profile = 'user' group by u.id having count(*) = 3 limit 1`,
  )
).rows[0] as { id: number; queues: number[] };
await q(`update users set password_hash = (select password_hash from users where id = 1) where id = $1`, [agent.id]);
const agentEmail = (await q(`select email from users where id = $1`, [agent.id])).rows[0].email as string;
const login = await app.inject({
  method: 'POST',
  url: '/auth/login',
  payload: { email: agentEmail, password: ADMIN.password },
});
const headers = { authorization: `Bearer ${login.json().token}` };
const queueIds = encodeURIComponent(JSON.stringify(agent.queues));

const get = (url: string, as = headers) => app.inject({ method: 'GET', url, headers: as });
const pendingUrl = `/tickets?status=pending&showAll=false&queueIds=${queueIds}&pageNumber=1`;
const openUrl = `/tickets?status=open&showAll=false&queueIds=${queueIds}&pageNumber=1`;
const searchUrl = (i: number) =>
  `/tickets?searchParam=${encodeURIComponent(`contato ${1000 + i}`)}&showAll=true&pageNumber=1`;
const agentTickets = async (offset: number) =>
  (
    await q(`select id from tickets where queue_id = any($1) order by id limit 200 offset $2`, [agent.queues, offset])
  ).rows.map((r) => r.id as number);
const visible = await agentTickets(0);
const unmeasured = await agentTickets(200);
// A server answers warm: before any series, each path runs until V8 has optimised it (a series' own
// warm-up of a tenth is too short for that); the messages on tickets the series never open.
for (let i = 0; i < WARM_UP; i++) {
  for (const url of [
    pendingUrl,
    openUrl,
    searchUrl(RUNS + i),
    `/messages/${unmeasured[i % 200]}`,
    '/health',
    '/contacts?pageNumber=3',
  ])
    await get(url);
}
const rawListQuery = () =>
  q(
    `select t.*, c.name from tickets t join contacts c on c.id = t.contact_id
     where t.company_id = 1 and t.status = 'pending' and t.queue_id = any($1) order by t.updated_at desc, t.id desc limit 21`,
    [agent.queues],
  );
/** The SQL statements one request takes (session check included), counted at the driver. */
const statementsOf = (url: string, as = headers) => countStatements(database.db, () => get(url, as));
const [pendingList, rawList] = await timePaired(RUNS, () => get(pendingUrl), rawListQuery);
const [openList, rawOpenList] = await timePaired(RUNS, () => get(openUrl), rawListQuery);
const [search, rawSearch] = await timePaired(
  RUNS,
  (i) => get(searchUrl(i)),
  (i) => q(`select id from contacts where company_id = 1 and lower(name) like $1 limit 21`, [`%contato ${1000 + i}%`]),
);
const rawMessagesQuery = (i: number) =>
  q(`select * from messages where ticket_id = $1 order by created_at desc, id desc limit 21`, [
    visible[i % visible.length],
  ]);
const messagesUrl = (i: number) => `/messages/${visible[i % visible.length]}`;
// Opening an open ticket with unread messages marks them read (two UPDATEs and an event): the first
// series opens each ticket, the second reads them again.
const marking = (
  await q(`select count(*)::int n from tickets where id = any($1) and status = 'open' and unread_messages > 0`, [
    visible.slice(Math.ceil(visible.length / 10)),
  ])
).rows[0].n as number;
// A series' unrecorded tenth opens its first tickets: the recorded first openings are the other nine tenths.
const [messagesPage, rawFirstMessages] = await timePaired(visible.length, (i) => get(messagesUrl(i)), rawMessagesQuery);
const [messagesAgain, rawMessages] = await timePaired(RUNS, (i) => get(messagesUrl(i)), rawMessagesQuery);
/** The contacts list's second page of 100k contacts, beside the same page in SQL. */
const [contactsPage, rawContacts] = await timePaired(
  RUNS,
  () => get('/contacts?pageNumber=2'),
  () => q(`select id, name, number from contacts where company_id = 1 order by lower(name), id limit 21 offset 20`),
);
/** The floor of any request: the same HTTP stack answering `/health`, which runs `select 1` (no session check). */
const floor = await timeEach(RUNS, () => get('/health'));

/** The dashboard over the last 30 days, as the company's admin; the raw baseline is one of its nine queries (closed cycles per attendant). */
const adminLogin = await app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
const adminHeaders = { authorization: `Bearer ${adminLogin.json().token}` };
const probe = await app.inject({ method: 'GET', url: '/dashboard?days=30', headers: adminHeaders });
if (probe.statusCode !== 200) throw new Error(`GET /dashboard: ${probe.statusCode} ${probe.body}`);
const [dashboard, rawDashboard] = await timePaired(
  DASHBOARD_RUNS,
  () => get('/dashboard?days=30', adminHeaders),
  () =>
    q(
      `select user_id, count(*), avg(support_seconds)
     from ticket_trakings where company_id = 1 and finished_at >= now() - interval '30 days' group by user_id`,
    ),
);

/**
 * An agent's text into an open ticket of their queues: stored as pending with the ticket's last
 * message (the send job is dropped), beside a single-row INSERT of the same message in SQL.
 */
const sendable = (
  await q(
    `select id, contact_id, whatsapp_id from tickets where queue_id = any($1) and status = 'open' order by id limit 200`,
    [agent.queues],
  )
).rows as { id: number; contact_id: number; whatsapp_id: number }[];
const postMessage = (i: number) =>
  app
    .inject({
      method: 'POST',
      url: `/messages/${sendable[i % sendable.length].id}`,
      headers,
      payload: { body: `Resposta ${i}` },
    })
    .then((res) => {
      if (res.statusCode !== 201) throw new Error(`POST /messages: ${res.statusCode} ${res.body}`);
    });
for (let i = 0; i < WARM_UP; i++) await postMessage(i);
const [sendMessage, rawSend] = await timePaired(RUNS, postMessage, (i) => {
  const t = sendable[i % sendable.length];
  return q(
    `insert into messages (company_id, ticket_id, contact_id, whatsapp_id, body, from_me, read, send_status)
     values (1, $1, $2, $3, $4, true, true, 'pending')`,
    [t.id, t.contact_id, t.whatsapp_id, `Bruta ${i}`],
  );
});

/**
 * The request's own statements, recorded at the driver for each call of the series, then replayed
 * one after another on the same pool, prepared under a name as the server sends them (PostgreSQL
 * plans them as it does the server's): what the database alone takes for the request.
 */
async function ownSql(url: (i: number) => string, as: typeof headers, n: number) {
  const recorded: SentStatement[][] = [];
  for (let i = 0; i < n; i++) recorded.push(await recordStatements(database.db, () => get(url(i), as)));
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const replay = (s: SentStatement) =>
    database.kind === 'postgres'
      ? pool.query({
          name: `own_${createHash('sha1').update(s.text).digest('hex').slice(0, 12)}`,
          text: s.text,
          values: s.values,
        })
      : q(s.text, s.values);
  for (const calls of recorded) for (const s of calls) await replay(s);
  return timeEach(n, async (i) => {
    for (const s of recorded[i]) await replay(s);
  });
}
const withStatements = async (
  name: string,
  samples: number[],
  raw: number[],
  url: (i: number) => string,
  as = headers,
) => {
  const own = percentiles(await ownSql(url, as, samples.length));
  return `${line(name, samples, raw)}   own SQL replayed p50 ${own.p50.toFixed(2)} ms, p95 ${own.p95.toFixed(2)} ms   ${await statementsOf(url(0), as)} statements`;
};
console.log(line('GET /health (floor: select 1)', floor));
console.log(await withStatements('GET /tickets pending (agent, 3 queues)', pendingList, rawList, () => pendingUrl));
console.log(await withStatements('GET /tickets open (agent, own)', openList, rawOpenList, () => openUrl));
console.log(await withStatements('GET /tickets?searchParam', search, rawSearch, searchUrl));
console.log(
  `${line('GET /messages/:ticketId, 1st open', messagesPage, rawFirstMessages)}   ${marking} of ${messagesPage.length} openings mark messages read`,
);
console.log(await withStatements('GET /messages/:ticketId, again', messagesAgain, rawMessages, messagesUrl));
console.log(line('GET /contacts page 2 (100k)', contactsPage, rawContacts));
console.log(
  await withStatements(
    'GET /dashboard?days=30 (admin)',
    dashboard,
    rawDashboard,
    () => '/dashboard?days=30',
    adminHeaders,
  ),
);

// Counted in the steady state: the first call after the admin's requests sent one more.
await postMessage(0);
const sendStatements = await countStatements(database.db, () => postMessage(1));
console.log(`${line("POST /messages/:ticketId (agent's text)", sendMessage, rawSend)}   ${sendStatements} statements`);

/** Inbound: N messages from 1,000 contacts (new and known) through the whole pipeline, C at a time. */
const N = Math.round(5_000 * Math.max(scale, 0.4));
const C = 32;
const whatsappId = (await q(`select id from whatsapps limit 1`)).rows[0].id as number;
const handleInbound = createInboundPipeline({ db: database.db, realtime, storage, log });
async function pool(n: number, run: (i: number) => Promise<unknown>) {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next < n) await run(next++);
    }),
  );
  return n / ((performance.now() - start) / 1000);
}
await q(
  `create table raw_inbound (id bigserial primary key, company_id int, provider_id text, body text, created_at timestamptz default now())`,
);
const rawRate = await pool(N, (i) =>
  q(`insert into raw_inbound (company_id, provider_id, body) values (1, $1, $2)`, [`RAW${i}`, `hello ${i}`]),
);
const inboundRate = await pool(N, (i) =>
  handleInbound({
    companyId: 1,
    whatsappId,
    providerId: `BENCH${i}`,
    number: String(5511900000000 + (i % 1000)),
    pushName: `Cliente ${i % 1000}`,
    fromMe: false,
    body: `Mensagem de entrada ${i}`,
    mediaType: 'chat',
  }),
);
console.log(
  `inbound pipeline                   ${inboundRate.toFixed(0).padStart(7)} msg/s   (baseline raw single-row INSERT ${rawRate.toFixed(0)} rows/s, ${C} concurrent)`,
);
const lat = percentiles(pendingList);
console.log(
  `targets (PostgreSQL): list p95 ≤ 25 ms → ${lat.p95.toFixed(1)}; search p95 ≤ 100 ms → ${percentiles(search).p95.toFixed(1)}; messages p95 ≤ 15 ms → ${percentiles(messagesPage).p95.toFixed(1)} (again ${percentiles(messagesAgain).p95.toFixed(1)}); dashboard p95 ≤ 50 ms → ${percentiles(dashboard).p95.toFixed(1)}; inbound ≥ 1000/s → ${inboundRate.toFixed(0)}`,
);
console.log(`server RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
await app.close();
await cleanup();
