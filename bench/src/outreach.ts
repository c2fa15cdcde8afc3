import { readFileSync, rmSync } from 'node:fs';
import pg from 'pg';
import type { CampaignDeps } from '../../apps/server/src/modules/campaigns/campaigns.lifecycle.js';
import { CAMPAIGN_SEND_QUEUE } from '../../apps/server/src/modules/campaigns/campaigns.lifecycle.js';
import { runCampaignLoop } from '../../apps/server/src/modules/campaigns/campaigns.sender.js';
import { IMPORT_QUEUE, runImport } from '../../apps/server/src/modules/contacts/contacts.import.js';
import { mergeImportedContacts } from '../../apps/server/src/modules/contacts/contacts.service.js';
import { type Jobs, noJobs } from '../../apps/server/src/platform/jobs/jobs.js';
import { ADMIN, benchApp, benchDatabase } from './setup.js';
import { line, percentiles, timeEach } from './stats.js';

/**
 * Issue 12's outreach figures, each beside raw SQL in the same run:
 * 1. starting a campaign of 10,000 recipients (POST /campaigns, which writes them) — target ≤ 5 s;
 * 2. the send engine's own cost per message with pacing off, on a sandbox connection — target ≤ 5 ms;
 * 3. importing a 50,000-row contacts file (no WhatsApp check) — target ≤ 30 s.
 * `npm run bench -- outreach` runs only this one.
 */
const LIST = 10_000;
const PREPARE_RUNS = 5;
const SENDS = 2_000;
const SEND_RUNS = 3;
const IMPORT_ROWS = 50_000;
const IMPORT_RUNS = 3;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const { database, url, cleanup } = await benchDatabase('outreach');
const q = (text: string, values?: unknown[]) => database.query(text, values);
const dataDir = `/tmp/balcao-bench-${process.pid}-outreach-files`;

/** Every job the app or the engine asks for, kept here: the bench runs them itself, so they are timed. */
const requested: { queue: string; data: unknown; startAfter?: Date }[] = [];
const jobs: Jobs = {
  ...noJobs,
  send: async (queue, data, options) => {
    requested.push({ queue, data, startAfter: options?.startAfter as Date | undefined });
    return 'job';
  },
};

// The channel manager is kept: the engine sends through it.
const { app, realtime, storage, channels, log } = await benchApp(database, dataDir, { jobs });
const login = await app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
const headers = { authorization: `Bearer ${login.json().token}` };
const api = async (method: 'POST' | 'GET', path: string, payload?: object, status = [200, 201]) => {
  const res = await app.inject({ method, url: path, headers, payload });
  if (!status.includes(res.statusCode)) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
  return res.json();
};

/** Raw SQL on one connection of its own (PGlite has only one anyway). */
const raw = url ? new pg.Client({ connectionString: url }) : undefined;
await raw?.connect();
const rq = (text: string, values?: unknown[]) => (raw ? raw.query(text, values) : q(text, values));

/**
 * Round trips to PostgreSQL while `counting` (every pg query goes through Client.prototype.query);
 * with BENCH_PROFILE=1 also the time each statement kept the engine waiting, printed after its runs.
 */
let roundTrips = 0;
let counting = false;
const profile = new Map<string, { calls: number; ms: number }>();
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (counting) roundTrips++;
  if (!counting || !process.env.BENCH_PROFILE) return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
  const first = args[0] as string | { text: string };
  const key = (typeof first === 'string' ? first : first.text).replace(/\s+/g, ' ').slice(0, 90);
  const t = performance.now();
  const done = () => {
    const p = profile.get(key) ?? { calls: 0, ms: 0 };
    p.calls++;
    p.ms += performance.now() - t;
    profile.set(key, p);
  };
  // The pool passes a callback; a checked-out client (a transaction) awaits the promise.
  const last = args.at(-1);
  if (typeof last === 'function')
    args[args.length - 1] = (...r: unknown[]) => {
      done();
      return (last as (...a: unknown[]) => unknown)(...r);
    };
  const result = (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
  if (result instanceof Promise) result.then(done, done);
  return result;
} as typeof clientQuery;

// A connected sandbox connection, pacing off.
const created = await api('POST', '/whatsapp', { name: 'Bench sandbox', provider: 'sandbox' });
const whatsappId = created.id as number;
await api('POST', `/whatsappsession/${whatsappId}`);
await api('POST', `/sandbox/${whatsappId}/scan`);
await api('POST', '/campaign-settings', {
  settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, variables: [] },
});

/** A contact list of `n` numbers checked on WhatsApp, in one statement. */
async function seedList(name: string, n: number, base: number) {
  const list = await api('POST', '/contact-lists', { name });
  await q(
    `insert into contact_list_items (company_id, contact_list_id, name, number, email, is_whatsapp_valid)
     select 1, $1, 'Pessoa ' || g, ($2::bigint + g)::text, 'p' || g || '@bench.test', true from generate_series(1, $3) g`,
    [list.id, base, n],
  );
  return list.id as number;
}
const bigList = await seedList('Lista 10k', LIST, 5521900000000);
const smallList = await seedList('Lista 2k', SENDS, 5531900000000);
await q('vacuum analyze');

let seq = 0;
const campaignOf = (contactListId: number) =>
  api('POST', '/campaigns', {
    name: `Campanha ${++seq}`,
    scheduledAt: new Date().toISOString(),
    contactListId,
    whatsappId,
    message1: 'Olá {nome}, seu número é {numero}',
  }) as Promise<{ id: number; status: string }>;
/** A campaign the engine never sees, for the raw baselines. */
const rawCampaign = async () =>
  (
    await q(
      `insert into campaigns (company_id, name, status, whatsapp_id, message1) values (1, $1, 'INATIVA', $2, 'Olá') returning id`,
      [`Raw ${++seq}`, whatsappId],
    )
  ).rows[0].id as number;
const countOf = async (campaignId: number, status: string) =>
  Number(
    (await q(`select count(*) n from campaign_shippings where campaign_id = $1 and status = $2`, [campaignId, status]))
      .rows[0].n,
  );

console.log(`\nOutreach bench on ${database.kind} (load ${load()})`);
// What one durable commit costs on this server (the WAL flush), with and without waiting for it:
// the engine's per-message figure depends on it more than on anything else.
if (raw) {
  await rq('create table commit_probe (id serial primary key, v text)');
  const probe = () => timeEach(200, (i) => rq('insert into commit_probe (v) values ($1)', [`v${i}`]));
  const durable = percentiles(await probe());
  await rq('set synchronous_commit = off');
  const lazy = percentiles(await probe());
  await rq('set synchronous_commit = on');
  console.log(
    `one-row INSERT + commit: p50 ${durable.p50.toFixed(2)} ms (synchronous_commit off: p50 ${lazy.p50.toFixed(2)} ms)`,
  );
}

/** 1. POST /campaigns due now: the campaign starts and its 10,000 recipients are written in the call. */
const prepare: number[] = [];
const rawPrepare: number[] = [];
for (let i = 0; i < PREPARE_RUNS; i++) {
  const id = await rawCampaign();
  let t = performance.now();
  await rq(
    `insert into campaign_shippings (company_id, campaign_id, number, name, email, variables, status, reason)
    select 1, $1, i.number, i.name, i.email, i.variables,
      case when i.is_whatsapp_valid = false or o.number is not null then 'skipped' else 'pending' end,
      case when i.is_whatsapp_valid = false then 'invalid' when o.number is not null then 'opted_out' end
    from contact_list_items i
    left join opt_outs o on o.company_id = 1 and o.number = i.number
    where i.contact_list_id = $2 and i.company_id = 1
    on conflict (campaign_id, number) do nothing`,
    [id, bigList],
  );
  rawPrepare.push(performance.now() - t);
  t = performance.now();
  const c = await campaignOf(bigList);
  prepare.push(performance.now() - t);
  const pending = await countOf(c.id, 'pending');
  if (c.status !== 'EM_ANDAMENTO' || pending !== LIST) throw new Error(`campaign ${c.id}: ${c.status}, ${pending}`);
  // Out of the way of the next run and of the sender bench.
  await q(`update campaigns set status = 'CANCELADA' where id = $1`, [c.id]);
}
console.log(`${line(`POST /campaigns (${LIST} recipients)`, prepare, rawPrepare)}  load ${load()}`);

/** 2. The engine alone: job after job of runCampaignLoop until it stops asking, pacing off. */
const deps: CampaignDeps = { db: database.db, realtime, channels, storage, log, jobs };
async function drain(): Promise<number> {
  let loops = 0;
  for (;;) {
    requested.length = 0;
    await runCampaignLoop(deps, whatsappId);
    loops++;
    const next = requested.filter((r) => r.queue === CAMPAIGN_SEND_QUEUE).at(-1);
    if (!next) return loops;
    const wait = (next.startAfter?.getTime() ?? 0) - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}
/** Baseline: claim, the sandbox's insert, the final update — three statements per message, ms per message. */
async function rawSends(): Promise<number> {
  const rawId = await rawCampaign();
  await q(
    `insert into campaign_shippings (company_id, campaign_id, number, name, email) select 1, $1, number, name, email from contact_list_items where contact_list_id = $2`,
    [rawId, smallList],
  );
  const t = performance.now();
  for (let i = 0; i < SENDS; i++) {
    const now = new Date();
    const claimed = await rq(
      `update campaign_shippings set status = 'sending', claimed_at = $2, attempts = attempts + 1, updated_at = $2
       where id = (select id from campaign_shippings where campaign_id = $1 and status = 'pending'
         and (retry_at is null or retry_at <= $2) order by id limit 1 for update skip locked)
       and status = 'pending' returning *`,
      [rawId, now],
    );
    const row = claimed.rows[0] as { id: number; number: string; name: string };
    await rq(
      `insert into sandbox_outbox (company_id, whatsapp_id, number, provider_id, body) values (1, $1, $2, $3, $4)
       on conflict (whatsapp_id, provider_id) do nothing`,
      [whatsappId, row.number, `RAW${row.id}`, `Olá ${row.name}, seu número é ${row.number}`],
    );
    await rq(
      `update campaign_shippings set status = 'sent', claimed_at = null, provider_id = $2, message_index = 0, sent_at = $3,
         reason = null, retry_at = null, updated_at = now() where id = $1 and status = 'sending'`,
      [row.id, `RAW${row.id}`, now],
    );
  }
  return (performance.now() - t) / SENDS;
}
const perMessage: number[] = [];
const rawPerMessage: number[] = [];
let tripsPerMessage = 0;
for (let run = 0; run < SEND_RUNS; run++) {
  rawPerMessage.push(await rawSends());

  const c = await campaignOf(smallList);
  const tripsBefore = roundTrips;
  counting = true;
  const t = performance.now();
  const cpu = process.cpuUsage();
  const loops = await drain();
  const elapsed = performance.now() - t;
  const { user, system } = process.cpuUsage(cpu);
  counting = false;
  const sent = await countOf(c.id, 'sent');
  const status = (await q(`select status from campaigns where id = $1`, [c.id])).rows[0].status;
  if (sent !== SENDS || status !== 'FINALIZADA') throw new Error(`campaign ${c.id}: ${sent} sent, ${status}`);
  perMessage.push(elapsed / sent);
  tripsPerMessage = (roundTrips - tripsBefore) / sent;
  // PGlite is in process: no round trips to count.
  const trips = raw ? `, ${tripsPerMessage.toFixed(1)} round trips/msg` : '';
  console.log(
    `  run ${run + 1}: ${sent} sent in ${(elapsed / 1000).toFixed(2)} s over ${loops} loop jobs, ${(elapsed / sent).toFixed(2)} ms/msg (Node CPU ${((user + system) / 1000 / sent).toFixed(2)} ms/msg)${trips} (raw ${rawPerMessage.at(-1)?.toFixed(2)} ms/msg, 3 statements)  load ${load()}`,
  );
}
console.log(line('campaign engine, per message', perMessage, rawPerMessage));
if (process.env.BENCH_PROFILE) {
  const messages = SENDS * SEND_RUNS;
  const all = [...profile.entries()].sort((a, b) => b[1].ms - a[1].ms);
  const total = all.reduce((sum, [, p]) => sum + p.ms, 0);
  console.log(`  database wait ${(total / messages).toFixed(2)} ms/msg; per statement (calls/msg, ms/msg):`);
  for (const [key, p] of all)
    console.log(`    ${(p.calls / messages).toFixed(2)}  ${(p.ms / messages).toFixed(3).padStart(6)}  ${key}`);
  // What the commits' WAL flushes cost: the same baseline without waiting for them.
  if (raw) {
    await raw.query('set synchronous_commit = off');
    console.log(`  raw baseline with synchronous_commit off: ${(await rawSends()).toFixed(2)} ms/msg`);
    await raw.query('set synchronous_commit = on');
  }
}

/** 3. POST /contacts/import of a 50,000-row CSV, then its job, until the import row is done. */
const rowsOf = (run: number) =>
  Array.from({ length: IMPORT_ROWS }, (_, i) => {
    const n = 5541900000000 + run * 1_000_000 + i;
    return { name: `Contato ${run}-${i}`, number: String(n), email: `c${run}x${i}@bench.test` };
  });
async function multipart(name: string, data: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)]), name);
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') as string },
  };
}
// The baseline's table: the contacts table's twin, with every index (trigram ones included).
await q(`create table contacts_raw (like contacts including all)`);
const imports: number[] = [];
const rawImports: number[] = [];
const targets = {
  contacts: mergeImportedContacts,
  list: () => {
    throw new Error('no list import here');
  },
};
for (let run = 0; run < IMPORT_RUNS; run++) {
  const rows = rowsOf(run);
  let t = performance.now();
  await rq(
    `insert into contacts_raw (company_id, name, number, email)
     select 1, t.name, t.number, t.email from unnest($1::varchar[], $2::varchar[], $3::varchar[]) as t(name, number, email)`,
    [rows.map((r) => r.name), rows.map((r) => r.number), rows.map((r) => r.email)],
  );
  rawImports.push(performance.now() - t);

  const csv = Buffer.from(`name,number,email\n${rows.map((r) => `${r.name},${r.number},${r.email}`).join('\n')}\n`);
  const body = await multipart('contatos.csv', csv);
  requested.length = 0;
  t = performance.now();
  const res = await app.inject({
    method: 'POST',
    url: '/contacts/import',
    payload: body.payload,
    headers: { ...headers, ...body.headers },
  });
  if (res.statusCode !== 202) throw new Error(`POST /contacts/import: ${res.statusCode} ${res.body}`);
  const job = requested.find((r) => r.queue === IMPORT_QUEUE)?.data as { importId: number; companyId: number };
  await runImport({ db: database.db, realtime, storage, jobs }, targets, job.companyId, job.importId);
  imports.push(performance.now() - t);
  const done = (await q(`select status, imported from contact_imports where id = $1`, [job.importId])).rows[0];
  if (done.status !== 'done' || done.imported !== IMPORT_ROWS) throw new Error(`import: ${JSON.stringify(done)}`);
  console.log(
    `  run ${run + 1}: ${(csv.length / 2 ** 20).toFixed(1)} MiB CSV imported in ${(imports.at(-1) as number).toFixed(0)} ms (raw unnest ${(rawImports.at(-1) as number).toFixed(0)} ms)  load ${load()}`,
  );
}
console.log(line(`contacts import (${IMPORT_ROWS} rows)`, imports, rawImports));

const [p, s, m] = [percentiles(prepare), percentiles(perMessage), percentiles(imports)];
console.log(
  `targets (PostgreSQL): prepare ${LIST} ≤ 5000 ms → p95 ${p.p95.toFixed(0)}; engine ≤ 5 ms/msg → p95 ${s.p95.toFixed(2)}; import ${IMPORT_ROWS} ≤ 30000 ms → p95 ${m.p95.toFixed(0)}`,
);
console.log(`server RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB, load ${load()}`);
pg.Client.prototype.query = clientQuery;
await raw?.end();
await app.close();
await cleanup();
rmSync(dataDir, { recursive: true, force: true });
