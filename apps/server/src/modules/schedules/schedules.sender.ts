import { mediaTypeOf, type Ticket } from '@balcao/shared';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { ChannelManager } from '../../channels/manager.js';
import { anyTenant } from '../../db/any-tenant.js';
import type { Db } from '../../db/client.js';
import { anyOfUnseen, statement } from '../../db/named-statement.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Jobs } from '../../platform/jobs/jobs.js';
import { stableMessageId } from '../../platform/message-id.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { readStored } from '../../platform/storage/read-stored.js';
import type { Storage } from '../../platform/storage/storage.js';
import { renderTemplate } from '../../platform/templates.js';
import { contacts } from '../contacts/contacts.schema.js';
import { messages } from '../messages/messages.schema.js';
import { emitMessage, viewMessage } from '../messages/messages.view.js';
import { getSetting } from '../settings/settings.service.js';
import { tickets } from '../tickets/tickets.schema.js';
import { emitTicket, selectTicket } from '../tickets/tickets.view.js';
import { whatsapps } from '../whatsapp/whatsapp.schema.js';
import { replaceScheduleJob, SCHEDULE_QUEUE, SCHEDULE_SWEEP_QUEUE } from './schedules.jobs.js';
import { schedules } from './schedules.schema.js';
import { emitSchedule, viewSchedule } from './schedules.service.js';

export interface SenderDeps {
  db: Db;
  realtime: Realtime;
  channels: ChannelManager;
  storage: Storage;
  log: Logger;
}

export interface SchedulePolicy {
  /** Delay before each retry of a transient failure; its length + 1 is the number of attempts. */
  retryDelaysMs: number[];
  /** Later than this after `sendAt` a schedule is not sent any more (ERRO "atrasado"). */
  maxLateMs: number;
  /** An ENVIANDO claim older than this belonged to a sender that died. */
  leaseMs: number;
}

/** About 5 attempts over an hour (DOMAIN §7): 2, 6, 15 and 30 minutes apart. */
export const defaultSchedulePolicy: SchedulePolicy = {
  retryDelaysMs: [2, 6, 15, 30].map((m) => m * 60_000),
  maxLateMs: 24 * 3_600_000,
  leaseMs: 5 * 60_000,
};

/** The reason stored on a schedule found more than a day late. */
export const LATE_REASON = 'atrasado';

/** Not on WhatsApp, a missing file, or a closed Cloud API window (Graph 131047): retrying cannot help. */
function isPermanent(err: unknown): boolean {
  if (err instanceof AppError && (err.code === 'ERR_WAPP_INVALID_CONTACT' || err.code === 'ERR_MEDIA_NOT_FOUND'))
    return true;
  const body = (err as { cause?: { body?: unknown } } | undefined)?.cause?.body;
  return typeof body === 'string' && body.includes('131047');
}

/** One provider id per occurrence: a send repeated after a crash is the same message to WhatsApp. */
const providerIdOf = (s: { id: number; companyId: number; sendAt: Date }) =>
  stableMessageId(`schedule:${s.companyId}:${s.id}:${s.sendAt.getTime()}`);

export function nextOccurrence(sendAt: Date, recurrence: string): Date | null {
  const d = new Date(sendAt);
  if (recurrence === 'daily') d.setUTCDate(d.getUTCDate() + 1);
  else if (recurrence === 'weekly') d.setUTCDate(d.getUTCDate() + 7);
  else if (recurrence === 'monthly') {
    const day = d.getUTCDate();
    d.setUTCDate(1);
    d.setUTCMonth(d.getUTCMonth() + 1);
    // The 31st of a shorter month is its last day.
    const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
    d.setUTCDate(Math.min(day, last));
  } else return null;
  return d;
}

type Row = typeof schedules.$inferSelect;

async function announce(deps: SenderDeps, id: number) {
  const record = await viewSchedule(deps.db, id);
  if (record) emitSchedule(deps.realtime, record.companyId, record.userId, { action: 'update', schedules: record });
}

/** The contact's open or pending ticket on the connection, else a new pending one (never assigned). */
async function ticketFor(db: Db, s: Row, whatsappId: number, isGroup: boolean) {
  const find = () =>
    db
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.contactId, s.contactId), eq(tickets.whatsappId, whatsappId), ne(tickets.status, 'closed')))
      .limit(1);
  const [open] = await find();
  if (open) return { id: open.id, created: false };
  const [row] = await db
    .insert(tickets)
    .values({ companyId: s.companyId, contactId: s.contactId, whatsappId, status: 'pending', isGroup })
    .onConflictDoNothing()
    .returning({ id: tickets.id });
  if (row) return { id: row.id, created: true };
  const [theirs] = await find();
  if (!theirs) throw new AppError('ERR_CREATING_TICKET');
  return { id: theirs.id, created: false };
}

/**
 * Sends one schedule at most once: the row is claimed (PENDENTE → ENVIANDO) before anything else,
 * so a retried or duplicated job, the sweeper and another instance find nothing to do.
 */
export async function runSchedule(
  deps: SenderDeps,
  id: number,
  policy: SchedulePolicy = defaultSchedulePolicy,
  now = new Date(),
): Promise<'sent' | 'retry' | 'failed' | 'late' | 'skipped'> {
  const [s] = await deps.db
    .update(schedules)
    .set({ status: 'ENVIANDO', claimedAt: now, attempts: sql`${schedules.attempts} + 1` })
    .where(and(eq(schedules.id, id), eq(schedules.status, 'PENDENTE')))
    .returning();
  if (!s) return 'skipped';
  const finish = async (set: Partial<Row>) => {
    await deps.db
      .update(schedules)
      .set({ claimedAt: null, ...set })
      .where(eq(schedules.id, id));
    await announce(deps, id);
  };
  // Only the first attempt can be late: a retry is late by design.
  if (s.attempts === 1 && now.getTime() - s.sendAt.getTime() > policy.maxLateMs) {
    await finish({ status: 'ERRO', lastError: LATE_REASON });
    return 'late';
  }
  try {
    const [contact] = await deps.db.select().from(contacts).where(eq(contacts.id, s.contactId));
    const [connection] = await deps.db
      .select({ id: whatsapps.id, status: whatsapps.status })
      .from(whatsapps)
      .where(
        s.whatsappId !== null
          ? eq(whatsapps.id, s.whatsappId)
          : and(eq(whatsapps.companyId, s.companyId), eq(whatsapps.isDefault, true)),
      )
      .limit(1);
    if (!connection) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
    if (connection.status !== 'CONNECTED') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    const ticket = await ticketFor(deps.db, s, connection.id, contact.isGroup);
    const body = renderTemplate(s.body, {
      contact,
      ticket,
      now,
      timeZone: await getSetting(deps.db, s.companyId, 'timezone'),
    });
    const channel = deps.channels.get(connection.id);
    const opts = { messageId: providerIdOf(s) };
    let sent: { providerId: string };
    if (s.mediaKey) {
      const media = {
        data: await readStored(deps.storage, s.mediaKey),
        fileName: s.mediaName ?? 'imagem',
        mimetype: s.mediaMime ?? 'image/jpeg',
      };
      sent = await channel.sendMedia(contact.number, media, body, opts);
    } else {
      sent = await channel.sendText(contact.number, body, opts);
    }
    const next = nextOccurrence(s.sendAt, s.recurrence);
    // The message joins the ticket's history as the creator's, the schedule is ENVIADA, and the next
    // occurrence with its job exists: all or nothing.
    const { messageId, nextId } = await deps.db.transaction(async (tx) => {
      const [m] = await tx
        .insert(messages)
        .values({
          companyId: s.companyId,
          ticketId: ticket.id,
          whatsappId: connection.id,
          contactId: s.contactId,
          fromMe: true,
          read: true,
          userId: s.userId,
          body,
          sendStatus: 'sent',
          providerId: sent.providerId,
          ack: 1,
          mediaType: s.mediaKey ? mediaTypeOf(s.mediaMime ?? 'image/jpeg') : 'chat',
          // The message keeps its own reference: the schedule's file stays for its next occurrence.
          mediaKey: s.mediaKey,
          mediaName: s.mediaName,
          mediaMime: s.mediaMime,
        })
        .returning({ id: messages.id });
      await tx
        .update(tickets)
        .set({ lastMessage: body || s.mediaName || '', lastMessageAt: now, lastFromMe: true })
        .where(eq(tickets.id, ticket.id));
      await tx
        .update(schedules)
        .set({ status: 'ENVIADA', sentAt: now, messageId: m.id, claimedAt: null, lastError: null })
        .where(eq(schedules.id, id));
      let nextId: number | null = null;
      if (next) {
        const [n] = await tx
          .insert(schedules)
          .values({
            companyId: s.companyId,
            contactId: s.contactId,
            whatsappId: s.whatsappId,
            userId: s.userId,
            body: s.body,
            sendAt: next,
            mediaKey: s.mediaKey,
            mediaName: s.mediaName,
            mediaMime: s.mediaMime,
            recurrence: s.recurrence,
            cancelIfReplied: s.cancelIfReplied,
          })
          .returning({ id: schedules.id });
        nextId = n.id;
        await replaceScheduleJob(tx as unknown as Db, n.id, next);
      }
      return { messageId: m.id, nextId };
    });
    const full = (await selectTicket(deps.db, s.companyId, ticket.id)) as Ticket;
    if (ticket.created) emitTicket(deps.realtime, s.companyId, full);
    const message = await viewMessage(deps.db, messageId);
    if (message) emitMessage(deps.realtime, s.companyId, full, 'create', message, { ticket: full });
    await announce(deps, id);
    if (nextId !== null) {
      const record = await viewSchedule(deps.db, nextId);
      if (record) emitSchedule(deps.realtime, s.companyId, s.userId, { action: 'create', schedules: record });
    }
    return 'sent';
  } catch (err) {
    const lastError = err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG';
    const delay = policy.retryDelaysMs[s.attempts - 1];
    deps.log.warn({ err, scheduleId: id, attempt: s.attempts }, 'schedule send failed');
    if (isPermanent(err) || delay === undefined) {
      await finish({ status: 'ERRO', lastError });
      return 'failed';
    }
    const retryAt = new Date(now.getTime() + delay);
    await deps.db.transaction(async (tx) => {
      await tx.update(schedules).set({ status: 'PENDENTE', claimedAt: null, lastError }).where(eq(schedules.id, id));
      await replaceScheduleJob(tx as unknown as Db, id, retryAt);
    });
    await announce(deps, id);
    return 'retry';
  }
}

/** Rows with a job still to run: not created, not retrying, not running. */
const liveJob = sql`exists (select 1 from pgboss.job j where j.name = ${SCHEDULE_QUEUE}
  and j.singleton_key = 'schedule:' || ${schedules.id} and j.state < 'completed')`;

/**
 * What no job will send: due PENDENTE rows without a live job (the server was down, the job was
 * lost), and ENVIANDO claims of a sender that died. Each is run here, its claim deciding.
 */
export async function sweepSchedules(
  deps: SenderDeps,
  policy: SchedulePolicy = defaultSchedulePolicy,
  now = new Date(),
): Promise<number> {
  const bossReady = (await deps.db.execute(sql`select to_regclass('pgboss.job') is not null as ok`)) as unknown as
    | { rows: { ok: boolean }[] }
    | { ok: boolean }[];
  const hasBoss = (Array.isArray(bossReady) ? bossReady : bossReady.rows)[0]?.ok === true;
  await deps.db
    .update(schedules)
    .set({ status: 'PENDENTE', claimedAt: null })
    .where(
      and(eq(schedules.status, 'ENVIANDO'), sql`${schedules.claimedAt} < ${new Date(now.getTime() - policy.leaseMs)}`),
    );
  const due = await deps.db
    .select({ id: schedules.id })
    .from(schedules)
    .where(
      and(
        eq(schedules.status, 'PENDENTE'),
        sql`${schedules.sendAt} <= ${now}`,
        hasBoss ? sql`not ${liveJob}` : undefined,
      ),
    )
    .orderBy(schedules.sendAt)
    .limit(200);
  for (const { id } of due) {
    await runSchedule(deps, id, policy, now).catch((err) => deps.log.error({ err, scheduleId: id }, 'schedule failed'));
  }
  return due.length;
}

/**
 * The schedules a reply cancels, as one named statement of fixed text for any number of contacts
 * (built once, so its `updated_at` is the database's `now()`). The state is written out, not a
 * parameter, so that the generic plan can prove it reads the partial index of pending schedules
 * that ask for it.
 */
const cancelledByReply = statement('schedules_cancel_on_reply', ['companyId', 'contactIds'], (db, p) =>
  db
    .update(schedules)
    .set({ status: 'CANCELADA', lastError: 'respondido', updatedAt: sql`now()` })
    .where(
      and(
        eq(schedules.companyId, anyTenant(p.companyId)),
        anyOfUnseen(schedules.contactId, p.contactIds, 'int'),
        sql`${schedules.status} = 'PENDENTE' and ${schedules.cancelIfReplied}`,
        sql`${schedules.sendAt} > now()`,
      ),
    )
    .returning({ id: schedules.id }),
);

/**
 * Cancel-if-replied: a message from the contact before `sendAt` cancels their pending schedules that
 * ask for it. One statement, no transaction: a cancelled schedule's job that outlives a crash finds it
 * no longer PENDENTE and skips it (runSchedule's claim).
 */
export async function cancelOnReply(db: Db, realtime: Realtime, companyId: number, contactIds: number[]) {
  if (contactIds.length === 0) return;
  const rows = await cancelledByReply(db, { companyId, contactIds });
  for (const r of rows) {
    await replaceScheduleJob(db, r.id, null);
    const record = await viewSchedule(db, r.id);
    if (record) emitSchedule(realtime, companyId, record.userId, { action: 'update', schedules: record });
  }
}

/** The send job and the sweeper (every minute, in every instance: the claims keep it to one send). */
export async function registerScheduleJobs(deps: SenderDeps, jobs: Jobs, policy = defaultSchedulePolicy) {
  await jobs.work<{ scheduleId?: number }>(SCHEDULE_QUEUE, async (job) => {
    if (job.scheduleId) await runSchedule(deps, job.scheduleId, policy);
  });
  await jobs.schedule(SCHEDULE_SWEEP_QUEUE, '* * * * *', async () => {
    await sweepSchedules(deps, policy);
  });
}
