import { readFileSync, rmSync } from 'node:fs';
import { type ChatRoomEvent, companyEvent } from '@balcao/shared';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { ADMIN, benchApp, benchDatabase } from './setup.js';
import { line, percentiles, timeEach } from './stats.js';

/**
 * Issue 13's workspace figures, each beside raw SQL in the same run:
 * 1. internal chat: a message from A's POST /chats/:id/messages to its arrival on B's Socket.IO
 *    client (a real socket on a listening server), 50 messages a second for 10 s — target p95 ≤ 50 ms;
 * 2. kanban: the lanes' first page (GET /ticket/kanban, one call per lane) with 100,000 tickets in
 *    the company, as its admin and as a plain user of two queues — target p95 ≤ 25 ms.
 * `npm run bench -- workspace` runs only this one.
 */
const RATE = 50;
const CHAT_SECONDS = 10;
const CHAT_WARMUP = 50;
const KANBAN_RUNS = 50;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const maxOf = (samples: number[]) => samples.reduce((m, s) => Math.max(m, s), 0);

const { database, url, cleanup } = await benchDatabase('workspace');
const TICKETS = database.kind === 'postgres' ? 100_000 : 10_000;
const q = (text: string, values?: unknown[]) => database.query(text, values);
const dataDir = `/tmp/balcao-bench-${process.pid}-workspace-files`;
const { app } = await benchApp(database, dataDir);
const base = await app.listen({ port: 0, host: '127.0.0.1' });

/** Raw SQL on one connection of its own (PGlite has only one anyway). */
const raw = url ? new pg.Client({ connectionString: url }) : undefined;
await raw?.connect();
const rq = (text: string, values?: unknown[]) => (raw ? raw.query(text, values) : q(text, values));

async function loginAs(email: string, password: string) {
  const res = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
  const body = res.json() as { token: string; user: { id: number } };
  return { token: body.token, id: body.user.id, headers: { authorization: `Bearer ${body.token}` } };
}
const admin = await loginAs(ADMIN.email, ADMIN.password);

console.log(`\nWorkspace bench on ${database.kind} (load ${load()})`);

/** 1. Internal chat: A writes, B's socket hears it. */
async function newMember(name: string) {
  const email = `${name.toLowerCase()}@bench.test`;
  const res = await app.inject({
    method: 'POST',
    url: '/users',
    headers: admin.headers,
    payload: { name, email, password: 'member-pass', profile: 'user' },
  });
  if (res.statusCode !== 201) throw new Error(`POST /users: ${res.statusCode} ${res.body}`);
  return loginAs(email, 'member-pass');
}
const a = await newMember('Ana');
const b = await newMember('Bruno');
const created = await app.inject({
  method: 'POST',
  url: '/chats',
  headers: a.headers,
  payload: { title: 'Equipe', users: [{ id: b.id }] },
});
if (created.statusCode !== 201) throw new Error(`POST /chats: ${created.statusCode} ${created.body}`);
const chatId = created.json().id as number;

const socket = await new Promise<Socket>((resolve, reject) => {
  const s = io(base, { auth: { token: b.token }, transports: ['websocket'], reconnection: false, forceNew: true });
  s.on('connect', () => resolve(s));
  s.on('connect_error', reject);
});
/** When each message left (its number is in its text) and when B's socket had it. */
const sentAt = new Map<number, number>();
const arrivedAt = new Map<number, number>();
let onArrival: (() => void) | undefined;
socket.on(companyEvent.chatRoom(1, chatId), (event: ChatRoomEvent) => {
  const now = performance.now();
  if (event.action !== 'new-message') return;
  arrivedAt.set(Number(event.message.message.split(' ')[1]), now);
  onArrival?.();
});

/** One message as A over HTTP (keep-alive, as a browser), resolving with its reply time. */
async function send(n: number): Promise<number> {
  const t = performance.now();
  sentAt.set(n, t);
  const res = await fetch(`${base}/chats/${chatId}/messages`, {
    method: 'POST',
    headers: { ...a.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ message: `mensagem ${n} da equipe` }),
  });
  if (res.status !== 201) throw new Error(`POST /chats/${chatId}/messages: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - t;
}
async function allArrived(ns: number[], ms = 5000) {
  const deadline = performance.now() + ms;
  while (ns.some((n) => !arrivedAt.has(n))) {
    if (performance.now() > deadline) throw new Error(`${ns.filter((n) => !arrivedAt.has(n)).length} never arrived`);
    await new Promise<void>((r) => {
      onArrival = r;
      setTimeout(r, 50);
    });
  }
}

// Warm-up (JIT, pool connections), one after the other.
for (let n = 0; n < CHAT_WARMUP; n++) await send(-1 - n);
await allArrived(Array.from({ length: CHAT_WARMUP }, (_, n) => -1 - n));

/** The steady rate: message n leaves at start + n/RATE s, whether or not earlier ones are answered. */
const COUNT = RATE * CHAT_SECONDS;
const replies: Promise<number>[] = [];
const loadBefore = load();
const start = performance.now();
for (let n = 0; n < COUNT; n++) {
  const wait = start + (n * 1000) / RATE - performance.now();
  if (wait > 0) await sleep(wait);
  replies.push(send(n));
}
const replyTimes = await Promise.all(replies);
const sent = Array.from({ length: COUNT }, (_, n) => n);
await allArrived(sent);
const elapsed = (performance.now() - start) / 1000;
const delivery = sent.map((n) => (arrivedAt.get(n) as number) - (sentAt.get(n) as number));

/** Baseline: the service's three writes in one transaction (chat's last message, the message, the others' unreads). */
const rawChat = await timeEach(COUNT, async (n) => {
  await rq('begin');
  await rq(
    `update chats set last_message = $1, updated_at = now() where id = $2 and company_id = 1
     and exists (select 1 from chat_users where chat_id = chats.id and user_id = $3) returning *`,
    [`raw ${n}`, chatId, a.id],
  );
  await rq(`insert into chat_messages (chat_id, sender_id, message) values ($1, $2, $3) returning *`, [
    chatId,
    a.id,
    `raw ${n}`,
  ]);
  await rq(`update chat_users set unreads = unreads + 1 where chat_id = $1 and user_id <> $2`, [chatId, a.id]);
  await rq('commit');
});
socket.close();
console.log(
  `chat: ${COUNT} messages in ${elapsed.toFixed(1)} s (${(COUNT / elapsed).toFixed(1)}/s), load ${loadBefore} → ${load()}`,
);
console.log(`${line('chat message → other member socket', delivery, rawChat)}  max ${maxOf(delivery).toFixed(2)} ms`);
console.log(`${line('POST /chats/:id/messages (reply)', replyTimes)}  max ${maxOf(replyTimes).toFixed(2)} ms`);
// Where the time goes: the event leaves before the reply, so a slow delivery is a slow write.
const early = sent.filter((n) => delivery[n] <= replyTimes[n]).length;
const late = delivery.filter((d) => d > 50).length;
console.log(`  the event reached B before A had the reply for ${early} of ${COUNT}; ${late} took over 50 ms`);

/**
 * 2. Kanban: 100,000 tickets (as the tickets bench: 70% closed, 20% open, 10% pending) over 4 queues (5% without one),
 * 5 kanban tags and 3 plain ones; a sixth of the tickets in no lane, a quarter with a plain tag.
 * Tickets keep their lane when closed, as the product leaves them.
 */
const t0 = performance.now();
await q(
  `insert into whatsapps (company_id, name, provider, status, is_default) values (1, 'Bench', 'sandbox', 'CONNECTED', true)`,
);
await q(
  `insert into queues (company_id, name, color) select 1, 'Fila ' || g, '#' || lpad(to_hex(g * 3000000), 6, '0') from generate_series(1, 4) g`,
);
const hash = (await q(`select password_hash from users where id = 1`)).rows[0].password_hash as string;
await q(
  `insert into users (company_id, name, email, password_hash, profile)
   select 1, 'Agente ' || g, 'agente' || g || '@bench.test', $1, 'user' from generate_series(1, 12) g`,
  [hash],
);
// Each agent in two neighbouring queues.
await q(`insert into user_queues (user_id, queue_id)
  select u.id, q.id from users u join (select id, row_number() over (order by id) - 1 k from queues where company_id = 1) q
  on (q.k - u.id % 4 + 4) % 4 < 2 where u.email like 'agente%'`);
await q(
  `insert into contacts (company_id, name, number)
   select 1, 'Contato ' || g || ' ' || substr(md5(g::text), 1, 6), (5511000000000 + g)::text from generate_series(1, $1) g`,
  [TICKETS],
);
// Each contact's hash spreads its ticket over statuses, queues, agents and lanes independently.
await q(`create unlogged table bench_seed as
  select c.id contact_id, (hashtext(c.id::text) & 2147483647) h from contacts c where c.company_id = 1`);
await q(`insert into tickets (company_id, contact_id, whatsapp_id, queue_id, user_id, status, last_message, unread_messages, updated_at, created_at)
  select 1, s.contact_id, w.id, q.id,
    case when s.h % 10 < 9 then a.id end,
    case when s.h % 10 < 7 then 'closed' when s.h % 10 < 9 then 'open' else 'pending' end,
    'Mensagem ' || s.contact_id, s.h % 3,
    now() - make_interval(secs => s.h % 1000000), now() - make_interval(secs => s.h % 1000000 + 3600)
  from bench_seed s
  cross join (select id from whatsapps limit 1) w
  left join (select id, row_number() over (order by id) - 1 k from queues where company_id = 1) q
    on s.h / 60 % 21 < 20 and q.k = s.h / 60 % 21 % 4
  left join lateral (select uq.user_id id from user_queues uq where uq.queue_id = q.id
    order by uq.user_id offset (s.h / 2000 % 6) limit 1) a on true`);
await q(`insert into tags (company_id, name, color, kanban)
  select 1, 'Etapa ' || g, '#' || lpad(to_hex(g * 2000000), 6, '0'), 1 from generate_series(1, 5) g
  union all select 1, 'Marcador ' || g, '#999999', 0 from generate_series(1, 3) g`);
const kanbanTags = (await q(`select id from tags where company_id = 1 and kanban = 1 order by id`)).rows.map(
  (r) => r.id as number,
);
await q(
  `insert into ticket_tags (ticket_id, tag_id)
   select t.id, ($1::int[])[h / 10 % 6] from tickets t join bench_seed s on s.contact_id = t.contact_id where s.h / 10 % 6 > 0
   union all
   select t.id, g.id from tickets t join bench_seed s on s.contact_id = t.contact_id
     join (select id, row_number() over (order by id) - 1 k from tags where kanban = 0) g on g.k = s.h / 5000 % 12
   `,
  [kanbanTags],
);
// The lane column, as the kanban writes keep it (tags.service refreshLanes).
await q(
  `update tickets t set lane_tag_id = l.tag_id from (select tt.ticket_id, min(tt.tag_id) tag_id from ticket_tags tt
     join tags g on g.id = tt.tag_id and g.kanban = 1 group by tt.ticket_id) l where l.ticket_id = t.id`,
);
await q('drop table bench_seed');
await q('vacuum analyze');
const seeded = (
  await q(
    `select (select count(*) from tickets) t, (select count(*) from tickets where status <> 'closed') o,
      (select count(*) from ticket_tags) tt`,
  )
).rows[0];
console.log(
  `kanban: ${seeded.t} tickets (${seeded.o} open or pending), ${seeded.tt} ticket tags, 4 queues, 5 kanban tags (seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s)`,
);

/** The plain user: an agent of two queues, not seeing tickets without a queue. */
const agent = (
  await q(
    `select u.id, u.email, array_agg(uq.queue_id order by uq.queue_id) queues from users u
     join user_queues uq on uq.user_id = u.id where u.email like 'agente%' group by u.id order by u.id limit 1`,
  )
).rows[0] as { id: number; email: string; queues: number[] };
const user = await loginAs(agent.email, ADMIN.password);

type Lane = 'open' | number;
const lanes: Lane[] = ['open', ...kanbanTags];
const laneUrl = (lane: Lane) =>
  lane === 'open' ? '/ticket/kanban?lane=open&pageNumber=1' : `/ticket/kanban?tagId=${lane}&pageNumber=1`;
async function kanban(headers: { authorization: string }, lane: Lane) {
  const res = await app.inject({ method: 'GET', url: laneUrl(lane), headers });
  if (res.statusCode !== 200) throw new Error(`GET ${laneUrl(lane)}: ${res.statusCode} ${res.body}`);
  return res.json() as { tickets: unknown[]; count: number };
}
/** The same lane in SQL: its first page with the contacts, and its count. */
async function rawLane(lane: Lane, visibility: string) {
  const inLane = lane === 'open' ? `t.lane_tag_id is null and $1::int[] is not null` : `t.lane_tag_id = $1`;
  const where = `t.company_id = 1 and t.status in ('open', 'pending') and ${inLane} ${visibility}`;
  const param = [lane === 'open' ? kanbanTags : lane];
  await rq(
    `select t.*, c.name, c.number from tickets t join contacts c on c.id = t.contact_id where ${where}
     order by t.updated_at desc, t.id desc limit 21`,
    param,
  );
  return (await rq(`select count(*) from tickets t where ${where}`, param)).rows[0].count;
}
const roles = [
  { name: 'admin', headers: admin.headers, visibility: '' },
  {
    name: 'user, 2 queues',
    headers: user.headers,
    visibility: `and (t.queue_id in (${agent.queues.join(',')}) or t.user_id = ${agent.id})`,
  },
];
const results: Record<string, number[]> = {};
for (const role of roles) {
  // The server's counts are the raw ones: both read the same lanes.
  for (const lane of lanes) {
    const [served, rawCount] = [await kanban(role.headers, lane), await rawLane(lane, role.visibility)];
    if (served.count !== Number(rawCount)) throw new Error(`${role.name} lane ${lane}: ${served.count} ≠ ${rawCount}`);
  }
  const counts = await Promise.all(lanes.map(async (l) => (await kanban(role.headers, l)).count));
  console.log(`  ${role.name}: lanes hold ${counts.join(', ')} tickets ("Em aberto" first)  load ${load()}`);
  const rawOpen = await timeEach(KANBAN_RUNS, () => rawLane('open', role.visibility));
  const open = await timeEach(KANBAN_RUNS, () => kanban(role.headers, 'open'));
  const rawTag = await timeEach(KANBAN_RUNS, (i) => rawLane(kanbanTags[i % kanbanTags.length], role.visibility));
  const tag = await timeEach(KANBAN_RUNS, (i) => kanban(role.headers, kanbanTags[i % kanbanTags.length]));
  // The floor of an authenticated call on this machine: the lanes themselves (a handful of tags).
  const floor = await timeEach(KANBAN_RUNS, () =>
    app.inject({ method: 'GET', url: '/tags/kanban', headers: role.headers }),
  );
  // The page asks for every lane at once.
  const board = await timeEach(KANBAN_RUNS, () => Promise.all(lanes.map((l) => kanban(role.headers, l))));
  console.log(line(`kanban "Em aberto" (${role.name})`, open, rawOpen));
  console.log(line(`kanban tag lane (${role.name})`, tag, rawTag));
  console.log(`${line(`kanban board, 6 lanes at once (${role.name})`, board)}  load ${load()}`);
  console.log(line(`GET /tags/kanban (${role.name}, floor)`, floor));
  results[role.name] = [...open, ...tag];
}

const chatP95 = percentiles(delivery).p95;
const kanbanP95 = Object.entries(results)
  .map(([name, s]) => `${name} ${percentiles(s).p95.toFixed(1)}`)
  .join(', ');
console.log(
  `targets (PostgreSQL): chat delivery p95 ≤ 50 ms → ${chatP95.toFixed(1)}; kanban lane p95 ≤ 25 ms → ${kanbanP95}`,
);
console.log(`server RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB, load ${load()}`);
await raw?.end();
await app.close();
await cleanup();
rmSync(dataDir, { recursive: true, force: true });
