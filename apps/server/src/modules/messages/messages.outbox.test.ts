import type { Message } from '@balcao/shared';
import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf, waitUntil } from '../../../test/sandbox-helpers.js';
import { AppError } from '../../platform/errors/app-error.js';
import { createOutbox, defaultOutboxPolicy, outboundIdOf } from './messages.outbox.js';
import { messages } from './messages.schema.js';

let server: TestServer;
let t: Tenant;
let whatsappId: number;
beforeAll(async () => {
  server = await createTestServer({}, { jobs: true, outbox: { sweepMs: 200, leaseMs: 2_000, retryBaseMs: 200 } });
  t = await createTenant(server);
  whatsappId = await connectedSandbox(server, t.admin);
});
afterAll(() => server.close());

let seq = 0;
/** A contact who wrote once, and its ticket. */
async function ticketOfNewContact() {
  const number = `55119777${String(++seq).padStart(5, '0')}`;
  await contactWrites(server, t.admin, whatsappId, { number, body: 'oi' });
  const list = await server.call('GET', `/tickets?searchParam=${number}`, t.admin);
  return { number, ticketId: list.json().tickets[0].id as number };
}

/** Agent replies written straight into the outbox, as a crash right after the commit leaves them: no wake-up. */
async function storedReplies(ticketId: number, bodies: string[], set: Partial<typeof messages.$inferInsert> = {}) {
  const [ticket] = await server.deps.database.db
    .select({ id: messages.ticketId, contactId: messages.contactId })
    .from(messages)
    .where(eq(messages.ticketId, ticketId))
    .limit(1);
  const rows = await server.deps.database.db
    .insert(messages)
    .values(
      bodies.map((body) => ({
        companyId: t.companyId,
        ticketId,
        whatsappId,
        contactId: ticket.contactId,
        body,
        fromMe: true,
        read: true,
        sendStatus: 'pending' as const,
        ...set,
      })),
    )
    .returning({ id: messages.id });
  return rows.map((r) => r.id);
}

const statusOf = async (ids: number[]) =>
  (
    await server.deps.database.db
      .select({ id: messages.id, sendStatus: messages.sendStatus, providerId: messages.providerId })
      .from(messages)
      .where(inArray(messages.id, ids))
  ).sort((a, b) => a.id - b.id);

/** A message as the chat shows it. */
const shown = async (ticketId: number, id: number) =>
  ((await server.call('GET', `/messages/${ticketId}`, t.admin)).json().messages as Message[]).find((m) => m.id === id);

const bodiesOnPhone = async (number: string) => (await phoneOf(server, t.admin, whatsappId, number)).map((m) => m.body);

describe('outbox', () => {
  it('replies stored without a wake-up (the process died after the commit) are sent by the sweeper, in order', async () => {
    const { number, ticketId } = await ticketOfNewContact();
    const bodies = ['primeira', 'segunda', 'terceira'];
    const ids = await storedReplies(ticketId, bodies);
    const phone = await waitUntil(
      () => bodiesOnPhone(number),
      (l) => l.length === 3,
    );
    expect(phone).toEqual(bodies);
    // The phone has the last one a moment before its `sent` is written.
    const settled = await waitUntil(
      () => statusOf(ids),
      (rows) => rows.every((r) => r.sendStatus !== 'sending'),
    );
    expect(settled.map((r) => r.sendStatus)).toEqual(['sent', 'sent', 'sent']);
    expect((await statusOf(ids)).map((r) => r.providerId)).toEqual(
      ids.map((id) => outboundIdOf({ id, companyId: t.companyId, whatsappId })),
    );
  });

  it('a send interrupted mid-way (claimed, never finished) is sent again once its lease ran out, and only once', async () => {
    const { number, ticketId } = await ticketOfNewContact();
    const [stale] = await storedReplies(ticketId, ['interrompida'], {
      sendStatus: 'sending',
      claimedAt: new Date(Date.now() - 60_000),
      sendAttempts: 1,
    });
    await waitUntil(
      () => bodiesOnPhone(number),
      (l) => l.includes('interrompida'),
    );
    await new Promise((r) => setTimeout(r, 600));
    expect(await bodiesOnPhone(number)).toEqual(['interrompida']);
    expect((await statusOf([stale]))[0].sendStatus).toBe('sent');
  });

  it('a fresh claim belongs to a sender at work: nobody else sends it, and newer replies wait behind it', async () => {
    const { number, ticketId } = await ticketOfNewContact();
    const [busy] = await storedReplies(ticketId, ['em envio'], { sendStatus: 'sending', claimedAt: new Date() });
    await storedReplies(ticketId, ['depois']);
    await new Promise((r) => setTimeout(r, 800));
    expect(await bodiesOnPhone(number)).toEqual([]);
    // The other sender finishes: the newer reply goes.
    await server.deps.database.db.update(messages).set({ sendStatus: 'sent' }).where(eq(messages.id, busy));
    expect(
      await waitUntil(
        () => bodiesOnPhone(number),
        (l) => l.length === 1,
      ),
    ).toEqual(['depois']);
  });

  it('two senders working one backlog at once (two instances) send each reply exactly once, in order', async () => {
    const { number, ticketId } = await ticketOfNewContact();
    const log = pino({ level: 'silent' });
    const senders = [0, 1].map(() =>
      createOutbox({ ...server.deps, db: server.deps.database.db, log }, { ...defaultOutboxPolicy }),
    );
    const bodies = Array.from({ length: 30 }, (_, i) => `lote ${i + 1}`);
    // Counted at the channel: the sandbox phone, like WhatsApp, would hide a repeated id.
    const sends = vi.spyOn(server.deps.channels.get(whatsappId), 'sendText');
    await storedReplies(ticketId, bodies);
    await Promise.all([...senders, ...senders].map((s) => s.deliver(ticketId)));
    const phone = await waitUntil(
      () => bodiesOnPhone(number),
      (l) => l.length >= 30,
    );
    expect(phone).toEqual(bodies);
    // The server's own sweeper may have taken part too: still one send per reply.
    expect(sends.mock.calls.filter(([to]) => to === number)).toHaveLength(30);
    sends.mockRestore();
  });

  it('a reply that fails holds the newer ones back until it is retried, so the contact reads them in order', async () => {
    const { number, ticketId } = await ticketOfNewContact();
    await server.deps.channels.stop(whatsappId);
    try {
      await server.call('POST', `/messages/${ticketId}`, t.admin, { body: 'um' });
      await server.call('POST', `/messages/${ticketId}`, t.admin, { body: 'dois' });
    } finally {
      await server.deps.channels.start(t.companyId, whatsappId);
    }
    expect(
      await waitUntil(
        () => bodiesOnPhone(number),
        (l) => l.length === 2,
      ),
    ).toEqual(['um', 'dois']);
  });

  it('a reply that failed while the connection was down shows why, and leaves once the connection is back', async () => {
    const { number, ticketId } = await ticketOfNewContact();
    await server.deps.channels.stop(whatsappId);
    const sent = await server.call('POST', `/messages/${ticketId}`, t.admin, { body: 'durante a queda' });
    const id = sent.json()[0].id as number;
    const failed = await waitUntil(
      () => shown(ticketId, id),
      (m) => m?.sendStatus === 'failed',
      15_000,
    );
    expect(failed?.sendError).toBe('ERR_WAPP_NOT_INITIALIZED');
    await server.deps.channels.start(t.companyId, whatsappId);
    expect(
      await waitUntil(
        () => bodiesOnPhone(number),
        (l) => l.length === 1,
      ),
    ).toEqual(['durante a queda']);
    // The phone has it before the outbox records the provider's answer.
    expect(
      await waitUntil(
        () => shown(ticketId, id),
        (m) => m?.sendStatus === 'sent',
      ),
    ).toMatchObject({ sendStatus: 'sent', sendError: null });
  });

  it('"try again" sends a failed reply once more; only a failed reply can be retried, and only by who sees the ticket', async () => {
    const { number, ticketId } = await ticketOfNewContact();
    const channel = server.deps.channels.get(whatsappId);
    const refused = vi.spyOn(channel, 'sendText').mockRejectedValue(new AppError('ERR_SENDING_WAPP_MSG'));
    const id = (await server.call('POST', `/messages/${ticketId}`, t.admin, { body: 'de novo' })).json()[0]
      .id as number;
    const failed = await waitUntil(
      () => shown(ticketId, id),
      (m) => m?.sendStatus === 'failed',
      15_000,
    );
    expect(failed?.sendError).toBe('ERR_SENDING_WAPP_MSG');
    refused.mockRestore();
    expect(await bodiesOnPhone(number)).toEqual([]);

    const other = await createTenant(server);
    expect((await server.call('POST', `/messages/${id}/retry`, other.admin)).statusCode).toBe(404);
    const retried = await server.call('POST', `/messages/${id}/retry`, t.admin);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ id, sendStatus: 'pending', sendError: null });
    expect(
      await waitUntil(
        () => bodiesOnPhone(number),
        (l) => l.length === 1,
      ),
    ).toEqual(['de novo']);
    const again = await server.call('POST', `/messages/${id}/retry`, t.admin);
    expect(again.statusCode).toBe(400);
  });
});
