import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements } from '../../test/count-statements.js';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../test/harness.js';
import { connectedSandbox, contactWrites } from '../../test/sandbox-helpers.js';
import { messages } from '../modules/messages/messages.schema.js';
import { updateBotStates } from '../modules/tickets/tickets.bot-state.js';
import { tickets } from '../modules/tickets/tickets.schema.js';
import { selectTicket } from '../modules/tickets/tickets.view.js';
import { type AutomationTicket, sendAutomatic } from './send-automatic.js';

/** Automatic messages asked for at the same moment share one statement, and lose none of their rules. */

let server: TestServer;
let t: Tenant;
let other: Tenant;
let seq = 0;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server);
  other = await createTenant(server);
});
afterAll(() => server.close());

const deps = () => ({ db: server.deps.database.db, realtime: server.deps.realtime, jobs: server.deps.jobs });

/** `n` contacts write to a sandbox connection of the tenant's: their tickets, as the automations get them. */
async function ticketsOf(tenant: Tenant, n: number): Promise<AutomationTicket[]> {
  const w = await connectedSandbox(server, tenant.admin);
  const out: AutomationTicket[] = [];
  for (let i = 0; i < n; i++) {
    const number = `55119${String(70000000 + ++seq)}`;
    await contactWrites(server, tenant.admin, w, { number, name: `Contato ${seq}`, body: 'oi' });
    const [row] = await server.deps.database.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(eq(tickets.whatsappId, w))
      .orderBy(asc(tickets.id))
      .offset(i);
    const view = await selectTicket(server.deps.database.db, tenant.companyId, row.id);
    if (!view) throw new Error('no ticket');
    out.push({ ...view, companyId: tenant.companyId });
  }
  return out;
}

const rowsOf = (ids: number[]) =>
  server.deps.database.db.select().from(messages).where(inArray(messages.ticketId, ids)).orderBy(asc(messages.id));
const ticketRow = async (id: number) =>
  (await server.deps.database.db.select().from(tickets).where(eq(tickets.id, id)))[0];
const messageWrites = (sent: { text: string }[]) => sent.filter((s) => /insert into "messages"/i.test(s.text)).length;

describe('automatic messages (send-automatic)', () => {
  it("are stored together, each with its ticket's change; a ticket's second message follows its first", async () => {
    const [a, b, c] = await ticketsOf(t, 3);
    let sentMessages: Awaited<ReturnType<typeof sendAutomatic>>[] = [];
    const sent = await recordStatements(server.deps.database.db, async () => {
      sentMessages = await Promise.all([
        sendAutomatic(deps(), a, 'A1', undefined, { amountUsedBotQueues: 3 }),
        sendAutomatic(deps(), b, 'B1', undefined, { chatbot: true, queueOptionId: null }),
        sendAutomatic(deps(), c, 'C1'),
        sendAutomatic(deps(), a, 'A2'),
      ]);
    });
    // A1, B1 and C1 in one statement; A2 after it, alone.
    expect(messageWrites(sent)).toBe(2);
    expect(sentMessages.map((m) => [m.ticketId, m.body])).toEqual([
      [a.id, 'A1'],
      [b.id, 'B1'],
      [c.id, 'C1'],
      [a.id, 'A2'],
    ]);

    const rows = await rowsOf([a.id, b.id, c.id]);
    const automatic = rows.filter((r) => r.isAutomatic);
    expect(automatic.map((r) => [r.ticketId, r.body])).toEqual([
      [a.id, 'A1'],
      [b.id, 'B1'],
      [c.id, 'C1'],
      [a.id, 'A2'],
    ]);
    for (const r of automatic) expect(r).toMatchObject({ fromMe: true, read: true, sendStatus: 'pending' });

    expect(await ticketRow(a.id)).toMatchObject({ lastMessage: 'A2', lastFromMe: true, amountUsedBotQueues: 3 });
    expect(await ticketRow(b.id)).toMatchObject({ lastMessage: 'B1', chatbot: true, amountUsedBotQueues: 0 });
    expect(await ticketRow(c.id)).toMatchObject({ lastMessage: 'C1', chatbot: false, amountUsedBotQueues: 0 });
  });

  it("a ticket that cannot take its message fails alone; the others' are stored", async () => {
    const [a, b, gone] = await ticketsOf(t, 3);
    await server.deps.database.db.delete(tickets).where(eq(tickets.id, gone.id));
    const outcomes = await Promise.allSettled([
      sendAutomatic(deps(), a, 'para A'),
      sendAutomatic(deps(), gone, 'para ninguém'),
      sendAutomatic(deps(), b, 'para B'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const rows = await rowsOf([a.id, b.id, gone.id]);
    // Tried alone after the shared statement failed, side by side: in either order.
    expect(
      rows
        .filter((r) => r.isAutomatic)
        .map((r) => r.body)
        .sort(),
    ).toEqual(['para A', 'para B']);
    expect(await ticketRow(a.id)).toMatchObject({ lastMessage: 'para A' });
  });

  it("each company's messages are a statement of their own, which changes only that company's tickets", async () => {
    const [mine] = await ticketsOf(t, 1);
    const [theirs] = await ticketsOf(other, 1);
    const sent = await recordStatements(server.deps.database.db, () =>
      Promise.all([sendAutomatic(deps(), mine, 'minha'), sendAutomatic(deps(), theirs, 'deles')]),
    );
    expect(messageWrites(sent)).toBe(2);
    expect(await ticketRow(mine.id)).toMatchObject({ lastMessage: 'minha' });
    expect(await ticketRow(theirs.id)).toMatchObject({ lastMessage: 'deles' });
  });

  it("bot states saved together: each ticket's change, the columns it leaves out kept, only the company's tickets", async () => {
    const [a, b] = await ticketsOf(t, 2);
    const [theirs] = await ticketsOf(other, 1);
    await server.deps.database.db.update(tickets).set({ amountUsedBotQueues: 2 }).where(eq(tickets.id, b.id));
    await updateBotStates(server.deps.database.db, t.companyId, [
      { ticketId: a.id, change: { chatbot: true, queueOptionId: null } },
      { ticketId: b.id, change: { queueId: null, chatbot: false } },
      { ticketId: theirs.id, change: { chatbot: true, amountUsedBotQueues: 9 } },
    ]);
    expect(await ticketRow(a.id)).toMatchObject({ chatbot: true, amountUsedBotQueues: 0 });
    expect(await ticketRow(b.id)).toMatchObject({ chatbot: false, amountUsedBotQueues: 2 });
    expect(await ticketRow(theirs.id)).toMatchObject({ chatbot: false, amountUsedBotQueues: 0 });
  });
});
