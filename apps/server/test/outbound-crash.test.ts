import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverProcess } from './server-process.js';

/**
 * The fault test of outbound durability (issue 8): the real server process on PostgreSQL, agents
 * answering ten tickets while the process is killed with SIGKILL mid-way, again and again. After
 * the last restart every reply the server stored has reached the sandbox phone once, in the order
 * it was written. A kill between the provider's answer and the write of the provider id makes the
 * outbox send that reply again, under the same message id, which the phone (like WhatsApp) shows
 * once: tolerated, and reported (the phone's `sends` counts them). `CRASH_RUNS` sets the number of kills.
 */
const RUNS = Number(process.env.CRASH_RUNS ?? 5);
const REPLIES_PER_TICKET = 20;
const TICKETS = 10;
const databaseUrl = process.env.DATABASE_URL;

describe.runIf(databaseUrl)('outbound replies across kill -9 (PostgreSQL)', () => {
  const server = serverProcess(databaseUrl as string, 'crash', { OUTBOX_LEASE_SECONDS: '3' });
  const { db, api, boot, killHard } = server;

  beforeAll(() => server.setUp());
  afterAll(() => server.tearDown());

  it(`every stored reply reaches the phone once and in order, over ${RUNS} kills`, async () => {
    await boot();
    await db.connect();
    const session = await server.login();
    const whatsappId = await server.sandbox('Crash');

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
    let resent = 0;
    let stored = 0;
    for (const [t, ticketId] of ticketIds.entries()) {
      const replies = await db.query<{ body: string; send_status: string }>(
        `select body, send_status from messages where ticket_id = $1 and from_me and body like 'reply %' order by id`,
        [ticketId],
      );
      // What the phone shows, in order, and how often each message's id was sent.
      const phone = (
        (await api('GET', `/sandbox/${whatsappId}/outbound?number=${numbers[t]}`)).json as unknown as {
          body: string;
          sends: number;
        }[]
      ).filter((m) => m.body.startsWith('reply '));
      const bodies = replies.rows.map((r) => r.body);
      stored += bodies.length;
      expect(replies.rows.every((r) => r.send_status === 'sent')).toBe(true);
      // In order, each at least once, nothing the server did not store.
      expect([...new Set(phone.map((m) => m.body))]).toEqual(bodies);
      duplicates += phone.length - bodies.length;
      resent += phone.reduce((sum, m) => sum + m.sends - 1, 0);
    }
    for (const body of accepted) {
      const { rows } = await db.query(`select 1 from messages where body = $1`, [body]);
      expect(rows.length, `accepted reply ${body} is stored`).toBe(1);
    }
    console.log(
      `outbound crash test: ${RUNS} kills, ${accepted.size} replies accepted, ${stored} stored, ` +
        `${duplicates} shown twice, ${resent} sent again under the same id (shown once), ` +
        `backlog drained ${drainedMs} ms after the last restart`,
    );
    // A send repeated after a kill carries the message's own id, which the phone shows once.
    expect(duplicates).toBe(0);
  }, 300_000);
});
