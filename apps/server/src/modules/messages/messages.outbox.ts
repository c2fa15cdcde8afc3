import { createHash } from 'node:crypto';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ChannelManager } from '../../channels/manager.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Jobs } from '../../platform/jobs/jobs.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { sequencer } from '../../platform/sequencer/sequencer.js';
import { readStored } from '../../platform/storage/read-stored.js';
import type { Storage } from '../../platform/storage/storage.js';
import { contacts } from '../contacts/contacts.schema.js';
import { tickets } from '../tickets/tickets.schema.js';
import { messages } from './messages.schema.js';
import { emitMessage, viewMessage } from './messages.view.js';

/**
 * The outbox of outbound messages. A message row written as `pending` is its own durable job:
 * whoever writes it (an agent, an automation) only wakes a sender through `SEND_QUEUE`, and the
 * sweeper finds every row that no sender is working on — written just before a crash, due for a
 * retry, or claimed by a sender that died mid-send. A sender claims the oldest unsent message of
 * a ticket with one conditional update, so two senders (a retried job, another instance, the
 * sweeper) never send the same row and a ticket's messages leave in the order they were written.
 */
export const SEND_QUEUE = 'messages.send';

export interface OutboxPolicy {
  /** Attempts before a message is `failed`. */
  attempts: number;
  /** Backoff of the n-th retry: `retryBaseMs * 2^(n-1)`. */
  retryBaseMs: number;
  /** A `sending` claim older than this was interrupted (its sender died): it may be claimed again. */
  leaseMs: number;
  /** How often the sweeper looks for work nobody is doing. */
  sweepMs: number;
  /** Tickets delivered at once by one sweep (each ticket's messages still one after another). */
  concurrency: number;
}

export const defaultOutboxPolicy: OutboxPolicy = {
  attempts: 4,
  retryBaseMs: 2_000,
  leaseMs: 40_000,
  sweepMs: 10_000,
  concurrency: 16,
};

export interface OutboxDeps {
  db: Db;
  realtime: Realtime;
  channels: ChannelManager;
  storage: Storage;
  jobs: Jobs;
  log: Logger;
}

type Claimed = {
  m: typeof messages.$inferSelect;
  number: string;
  queueId: number | null;
  userId: number | null;
};

const unsent = sql`${messages.sendStatus} in ('pending', 'sending') and ${messages.isDeleted} = false`;

/** A row nobody works on: pending and due, or claimed by a sender that has not finished within the lease. */
const claimable = (leaseMs: number) =>
  sql`((${messages.sendStatus} = 'pending' and ${messages.nextSendAt} <= now())
    or (${messages.sendStatus} = 'sending' and ${messages.claimedAt} < now() - make_interval(secs => ${leaseMs / 1000})))`;

/** Claims the ticket's oldest unsent message if nobody works on it; a newer one waits behind it. */
async function claimNext(db: Db, ticketId: number, leaseMs: number): Promise<Claimed | undefined> {
  const oldest = db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.ticketId, ticketId), unsent))
    .orderBy(asc(messages.id))
    .limit(1);
  const [row] = await db
    .update(messages)
    .set({
      sendStatus: 'sending',
      claimedAt: sql`now()`,
      sendAttempts: sql`${messages.sendAttempts} + 1`,
    })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(and(eq(messages.id, sql`(${oldest})`), eq(tickets.id, messages.ticketId), unsent, claimable(leaseMs)))
    .returning({ m: messages, number: contacts.number, queueId: tickets.queueId, userId: tickets.userId });
  return row as Claimed | undefined;
}

/**
 * The provider id we ask for: derived from the row, so every attempt of one message carries the
 * same id (WhatsApp Web's shape, `3EB0` and 18 hex digits, which providers accept from a sender).
 */
export function outboundIdOf(m: { id: number; companyId: number; whatsappId: number }): string {
  const digest = createHash('sha256').update(`balcao:${m.companyId}:${m.whatsappId}:${m.id}`).digest('hex');
  return `3EB0${digest.slice(0, 18).toUpperCase()}`;
}

/** Wakes a sender for the ticket (any instance), now or after a delay; the sweeper is the safety net. */
export function wake(jobs: Jobs, ticketId: number, delayMs = 0) {
  return jobs.send(SEND_QUEUE, { ticketId }, { startAfter: Math.ceil(delayMs / 1000), retryLimit: 0 });
}

/**
 * Puts failed messages back in the outbox as new: their attempts start over. `where` names
 * them (one message the agent retries, or what a dropped connection failed); resolves with the
 * rows, for their announcement.
 */
export async function sendAgain(db: Db, jobs: Jobs, where: SQL) {
  const rows = await db
    .update(messages)
    .set({ sendStatus: 'pending', sendAttempts: 0, sendError: null, nextSendAt: sql`now()` })
    .where(and(eq(messages.sendStatus, 'failed'), eq(messages.isDeleted, false), where))
    .returning();
  for (const ticketId of new Set(rows.map((r) => r.ticketId))) await wake(jobs, ticketId);
  return rows;
}

/** Failed because the connection was down: sent again once it is back (within a day, as a person would). */
export const failedWhileDown = (whatsappId: number) =>
  and(
    eq(messages.whatsappId, whatsappId),
    eq(messages.sendError, 'ERR_WAPP_NOT_INITIALIZED'),
    sql`${messages.createdAt} > now() - interval '1 day'`,
  ) as SQL;

/** Another instance asks the one holding a connection to deliver a ticket's messages. */
const HAND_OVER = 'outbox:deliver';
const handOver = z.object({ ticketId: z.number().int().positive(), whatsappId: z.number().int().positive() });

const isPermanent = (err: unknown) =>
  err instanceof AppError && (err.code === 'ERR_WAPP_INVALID_CONTACT' || err.code === 'ERR_MEDIA_NOT_FOUND');

export interface Outbox {
  /** Sends the ticket's due messages, oldest first, until none is left or one must wait. */
  deliver(ticketId: number): Promise<void>;
  /** Delivers every ticket with work nobody is doing; resolves with how many tickets it served. */
  sweep(): Promise<number>;
  /** Sweeps now (work that came due while the server was down), then every `sweepMs`. */
  start(): void;
  stop(): Promise<void>;
}

export function createOutbox(deps: OutboxDeps, policy: OutboxPolicy = defaultOutboxPolicy): Outbox {
  const { db, realtime, log } = deps;
  // One delivery per ticket at a time in this process; across instances the claim decides.
  const oneAtATime = sequencer<number>();
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<number> | undefined;

  const announce = async (row: Claimed) => {
    const message = await viewMessage(db, row.m.id);
    const ticket = { id: row.m.ticketId, queueId: row.queueId, userId: row.userId };
    if (message) emitMessage(realtime, row.m.companyId, ticket, 'update', message);
  };

  const send = async (row: Claimed) => {
    const { m } = row;
    const channel = deps.channels.get(m.whatsappId);
    const quoted = m.quotedMsgId
      ? (await db.select({ providerId: messages.providerId }).from(messages).where(eq(messages.id, m.quotedMsgId)))[0]
      : undefined;
    const opts = { quotedProviderId: quoted?.providerId ?? undefined, messageId: outboundIdOf(m) };
    if (!m.mediaKey) return channel.sendText(row.number, m.body, opts);
    const media = {
      data: await readStored(deps.storage, m.mediaKey),
      fileName: m.mediaName ?? 'file',
      mimetype: m.mediaMime ?? 'application/octet-stream',
    };
    return channel.sendMedia(row.number, media, m.body, opts);
  };

  /** After a failed attempt: `failed` for good, or pending again with a durable wake-up at its retry time. */
  const afterFailure = async (row: Claimed, err: unknown) => {
    const last = isPermanent(err) || row.m.sendAttempts >= policy.attempts;
    const delayMs = policy.retryBaseMs * 2 ** (row.m.sendAttempts - 1);
    const sendError = err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG';
    log.warn({ err, messageId: row.m.id, attempt: row.m.sendAttempts, last }, 'outbound send failed');
    await db
      .update(messages)
      .set(
        last
          ? { sendStatus: 'failed', claimedAt: null, sendError }
          : { sendStatus: 'pending', claimedAt: null, sendError, nextSendAt: new Date(Date.now() + delayMs) },
      )
      .where(eq(messages.id, row.m.id));
    if (last) return announce(row);
    await wake(deps.jobs, row.m.ticketId, delayMs);
  };

  /**
   * A connection live on another instance (Baileys keeps one socket per connection): the claim is
   * undone and the instance that holds it sends now, instead of this one failing and retrying until
   * the holder's sweep finds the message. True when an instance took it.
   */
  const handToHolder = async (row: Claimed) => {
    await db
      .update(messages)
      .set({ sendStatus: 'pending', claimedAt: null, sendAttempts: sql`${messages.sendAttempts} - 1` })
      .where(and(eq(messages.id, row.m.id), eq(messages.sendStatus, 'sending')));
    const answers = await realtime.askInstances(HAND_OVER, { ticketId: row.m.ticketId, whatsappId: row.m.whatsappId });
    return answers.includes(true);
  };

  const deliver = (ticketId: number) =>
    oneAtATime(ticketId, async () => {
      let askedHolder = false;
      for (;;) {
        const row = await claimNext(db, ticketId, policy.leaseMs);
        if (!row) return;
        if (!askedHolder && !deps.channels.holds(row.m.whatsappId)) {
          askedHolder = true;
          if (await handToHolder(row)) return;
          // Nobody holds it: this instance tries, fails and retries as for any connection that is down.
          continue;
        }
        let providerId: string;
        try {
          ({ providerId } = await send(row));
        } catch (err) {
          await afterFailure(row, err);
          // A failed message that will be retried holds the newer ones back: order over speed.
          if (row.m.sendAttempts < policy.attempts && !isPermanent(err)) return;
          continue;
        }
        // Recorded right after the provider accepted it: a crash can only duplicate this one message.
        await db
          .update(messages)
          .set({ sendStatus: 'sent', providerId, ack: 1, claimedAt: null, sendError: null })
          .where(eq(messages.id, row.m.id));
        await announce(row);
      }
    });

  const sweepOnce = async () => {
    const due = await db
      .selectDistinct({ ticketId: messages.ticketId })
      .from(messages)
      .where(and(unsent, claimable(policy.leaseMs)))
      .limit(500);
    const queue = due.map((d) => d.ticketId);
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        await deliver(id).catch((err) => log.error({ err, ticketId: id }, 'outbox delivery failed'));
      }
    };
    await Promise.all(Array.from({ length: Math.min(policy.concurrency, queue.length) }, worker));
    return due.length;
  };

  const sweep = () => {
    sweeping ??= sweepOnce().finally(() => {
      sweeping = undefined;
    });
    return sweeping;
  };

  realtime.onInstances(HAND_OVER, (payload) => {
    const asked = handOver.safeParse(payload);
    if (!asked.success || !deps.channels.holds(asked.data.whatsappId)) return false;
    void deliver(asked.data.ticketId).catch((err) =>
      log.error({ err, ticketId: asked.data.ticketId }, 'outbox delivery failed'),
    );
    return true;
  });

  return {
    deliver,
    sweep,
    start() {
      const tick = () =>
        void sweep()
          .catch((err) => log.error({ err }, 'outbox sweep failed'))
          .finally(() => {
            if (timer) timer = setTimeout(tick, policy.sweepMs);
          });
      timer = setTimeout(tick, 0);
    },
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      await sweeping?.catch(() => undefined);
    },
  };
}
