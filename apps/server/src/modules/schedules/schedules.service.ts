import { companyEvent, type Schedule, type ScheduleEvent, type ScheduleRecurrence } from '@balcao/shared';
import { and, count, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { ChannelManager } from '../../channels/manager.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import { type Realtime, rooms } from '../../platform/realtime/realtime.js';
import { imageKindOf } from '../../platform/storage/images.js';
import type { Storage } from '../../platform/storage/storage.js';
import { isAdmin, type ServiceContext } from '../../platform/tenancy/context.js';
import { instantOf } from '../../platform/wall-clock.js';
import { contacts } from '../contacts/contacts.schema.js';
import { messages } from '../messages/messages.schema.js';
import { mediaUrlOf } from '../messages/messages.view.js';
import { getSetting } from '../settings/settings.service.js';
import { tickets } from '../tickets/tickets.schema.js';
import { users } from '../users/users.schema.js';
import { whatsapps } from '../whatsapp/whatsapp.schema.js';
import { assertWhatsappOfCompany } from '../whatsapp/whatsapp.service.js';
import { replaceScheduleJob } from './schedules.jobs.js';
import { schedules } from './schedules.schema.js';

type Row = typeof schedules.$inferSelect;
type Input = {
  body: string;
  contactId: number;
  sendAt: string;
  whatsappId?: number | null;
  recurrence: ScheduleRecurrence;
  cancelIfReplied: boolean;
};

/** A schedule must leave at least this far ahead of its creation (DOMAIN §7). */
export const MIN_LEAD_MS = 60_000;

const columns = {
  s: schedules,
  contactName: contacts.name,
  contactNumber: contacts.number,
  whatsappName: whatsapps.name,
  userName: users.name,
};
type Joined = {
  s: Row;
  contactName: string;
  contactNumber: string;
  whatsappName: string | null;
  userName: string | null;
};

const selectJoined = (db: Db) =>
  db
    .select(columns)
    .from(schedules)
    .innerJoin(contacts, eq(contacts.id, schedules.contactId))
    .leftJoin(whatsapps, eq(whatsapps.id, schedules.whatsappId))
    .leftJoin(users, eq(users.id, schedules.userId));

export function toSchedule(j: Joined): Schedule {
  const { s } = j;
  return {
    id: s.id,
    body: s.body,
    sendAt: s.sendAt.toISOString(),
    sentAt: s.sentAt?.toISOString() ?? null,
    status: s.status as Schedule['status'],
    companyId: s.companyId,
    contactId: s.contactId,
    contact: { id: s.contactId, name: j.contactName, number: j.contactNumber },
    whatsappId: s.whatsappId,
    whatsapp: s.whatsappId !== null && j.whatsappName !== null ? { id: s.whatsappId, name: j.whatsappName } : null,
    userId: s.userId,
    user: s.userId !== null && j.userName !== null ? { id: s.userId, name: j.userName } : null,
    mediaPath: mediaUrlOf(s.mediaKey),
    mediaName: s.mediaName,
    attempts: s.attempts,
    lastError: s.lastError,
    recurrence: s.recurrence as ScheduleRecurrence,
    cancelIfReplied: s.cancelIfReplied,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** Admins see every schedule of the company; an agent only their own (the spec shows no rule). */
const visible = (ctx: ServiceContext): SQL =>
  and(eq(schedules.companyId, ctx.companyId), isAdmin(ctx) ? undefined : eq(schedules.userId, ctx.userId)) as SQL;

export async function viewSchedule(db: Db, id: number): Promise<Schedule | undefined> {
  const [j] = await selectJoined(db).where(eq(schedules.id, id));
  return j && toSchedule(j);
}

/** The same rule as `visible`, as rooms: the company's admins and the schedule's creator. */
export function emitSchedule(realtime: Realtime, companyId: number, userId: number | null, payload: ScheduleEvent) {
  const readers = [rooms.admins(companyId), ...(userId !== null ? [rooms.user(userId)] : [])];
  realtime.toRooms(readers, companyEvent.schedule(companyId), payload);
}

export async function listSchedules(ctx: ServiceContext, q: { search: string; page: number; contactId?: number }) {
  const { limit, offset, size } = pageWindow(q.page);
  const term = likePattern(q.search);
  const where = and(
    visible(ctx),
    q.contactId ? eq(schedules.contactId, q.contactId) : undefined,
    q.search ? or(sql`lower(${contacts.name}) like ${term}`, sql`lower(${schedules.body}) like ${term}`) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    selectJoined(ctx.db).where(where).orderBy(desc(schedules.sendAt), desc(schedules.id)).limit(limit).offset(offset),
    ctx.db
      .select({ total: count() })
      .from(schedules)
      .innerJoin(contacts, eq(contacts.id, schedules.contactId))
      .where(where),
  ]);
  const page = pageOf(rows, size);
  return { schedules: page.items.map(toSchedule), count: total, hasMore: page.hasMore };
}

async function findRow(ctx: ServiceContext, id: number): Promise<Joined> {
  const [j] = await selectJoined(ctx.db).where(and(eq(schedules.id, id), visible(ctx)));
  if (!j) throw new AppError('ERR_NO_SCHEDULE_FOUND');
  return j;
}

export const findSchedule = async (ctx: ServiceContext, id: number) => toSchedule(await findRow(ctx, id));

async function resolveSendAt(ctx: ServiceContext, value: string, now: Date): Promise<Date> {
  const at = instantOf(value, await getSetting(ctx.db, ctx.companyId, 'timezone'));
  if (Number.isNaN(at.getTime())) throw new AppError('ERR_VALIDATION', {}, 'Data inválida');
  if (at.getTime() < now.getTime() + MIN_LEAD_MS) throw new AppError('ERR_SCHEDULE_SEND_AT');
  return at;
}

/** The contact's last ticket connection, else the company's default (DOMAIN §7); null when it has none. */
async function defaultConnectionOf(db: Db, companyId: number, contactId: number): Promise<number | null> {
  const [last] = await db
    .select({ whatsappId: tickets.whatsappId })
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.contactId, contactId)))
    .orderBy(desc(tickets.updatedAt), desc(tickets.id))
    .limit(1);
  if (last) return last.whatsappId;
  const [def] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.isDefault, true)))
    .limit(1);
  return def?.id ?? null;
}

async function contactOf(ctx: ServiceContext, id: number) {
  const [c] = await ctx.db
    .select({ id: contacts.id, number: contacts.number, isGroup: contacts.isGroup })
    .from(contacts)
    .where(and(eq(contacts.id, id), eq(contacts.companyId, ctx.companyId)));
  if (!c) throw new AppError('ERR_NO_CONTACT_FOUND');
  return c;
}

/** Asks WhatsApp about the number when the connection is up; a connection that cannot tell lets it through. */
async function assertOnWhatsapp(
  channels: ChannelManager,
  db: Db,
  whatsappId: number | null,
  number: string,
  isGroup: boolean,
) {
  if (whatsappId === null || isGroup) return;
  const [w] = await db.select({ status: whatsapps.status }).from(whatsapps).where(eq(whatsapps.id, whatsappId));
  if (w?.status !== 'CONNECTED') return;
  let exists = true;
  try {
    ({ exists } = await channels.get(whatsappId).checkNumber(number));
  } catch {
    return;
  }
  if (!exists) throw new AppError('ERR_WAPP_INVALID_CONTACT');
}

export interface ScheduleDeps {
  channels: ChannelManager;
  storage: Storage;
}

export async function createSchedule(ctx: ServiceContext, deps: ScheduleDeps, input: Input, now = new Date()) {
  const contact = await contactOf(ctx, input.contactId);
  if (input.whatsappId) await assertWhatsappOfCompany(ctx.db, ctx.companyId, input.whatsappId);
  const sendAt = await resolveSendAt(ctx, input.sendAt, now);
  const whatsappId = input.whatsappId ?? (await defaultConnectionOf(ctx.db, ctx.companyId, contact.id));
  await assertOnWhatsapp(deps.channels, ctx.db, whatsappId, contact.number, contact.isGroup);
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(schedules)
      .values({
        companyId: ctx.companyId,
        contactId: contact.id,
        whatsappId,
        userId: ctx.userId,
        body: input.body,
        sendAt,
        recurrence: input.recurrence,
        cancelIfReplied: input.cancelIfReplied,
      })
      .returning({ id: schedules.id });
    await replaceScheduleJob(tx as unknown as Db, row.id, sendAt);
    return row.id;
  });
  const record = (await viewSchedule(ctx.db, id)) as Schedule;
  emitSchedule(ctx.realtime, ctx.companyId, ctx.userId, { action: 'create', schedules: record });
  return record;
}

/** Editable until it is claimed for sending: a sent one is history, a failed one may be rescheduled. */
export async function updateSchedule(
  ctx: ServiceContext,
  deps: ScheduleDeps,
  id: number,
  input: Partial<Input>,
  now = new Date(),
) {
  const { s: before } = await findRow(ctx, id);
  if (before.status === 'ENVIADA' || before.status === 'ENVIANDO') throw new AppError('ERR_SCHEDULE_SENT');
  const contact = await contactOf(ctx, input.contactId ?? before.contactId);
  if (input.whatsappId) await assertWhatsappOfCompany(ctx.db, ctx.companyId, input.whatsappId);
  const sendAt = input.sendAt !== undefined ? await resolveSendAt(ctx, input.sendAt, now) : before.sendAt;
  // A failed or cancelled one goes back to the queue only with a new time ahead.
  if (before.status !== 'PENDENTE' && sendAt.getTime() < now.getTime() + MIN_LEAD_MS)
    throw new AppError('ERR_SCHEDULE_SEND_AT');
  const whatsappId =
    input.whatsappId !== undefined
      ? (input.whatsappId ?? (await defaultConnectionOf(ctx.db, ctx.companyId, contact.id)))
      : before.whatsappId;
  if (input.contactId !== undefined || input.whatsappId !== undefined)
    await assertOnWhatsapp(deps.channels, ctx.db, whatsappId, contact.number, contact.isGroup);
  const updated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(schedules)
      .set({
        body: input.body ?? before.body,
        contactId: contact.id,
        whatsappId,
        sendAt,
        recurrence: input.recurrence ?? before.recurrence,
        cancelIfReplied: input.cancelIfReplied ?? before.cancelIfReplied,
        status: 'PENDENTE',
        attempts: 0,
        lastError: null,
      })
      // Not claimed meanwhile by a sender.
      .where(and(eq(schedules.id, id), sql`${schedules.status} not in ('ENVIANDO', 'ENVIADA')`))
      .returning({ id: schedules.id });
    if (!row) return false;
    await replaceScheduleJob(tx as unknown as Db, id, sendAt);
    return true;
  });
  if (!updated) throw new AppError('ERR_SCHEDULE_SENT');
  const record = (await viewSchedule(ctx.db, id)) as Schedule;
  emitSchedule(ctx.realtime, ctx.companyId, record.userId, { action: 'update', schedules: record });
  return record;
}

/** A file shared with a sent message or another occurrence stays: only its last reference removes it. */
async function removeMediaIfUnused(db: Db, storage: Storage, key: string | null) {
  if (!key) return;
  const [used] = await db
    .execute(sql`select 1 from ${schedules} where ${schedules.mediaKey} = ${key}
    union all select 1 from ${messages} where ${messages.mediaKey} = ${key} limit 1`)
    .then((r) => (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows));
  if (!used) await storage.remove(key);
}

export async function deleteSchedule(ctx: ServiceContext, storage: Storage, id: number): Promise<void> {
  const { s } = await findRow(ctx, id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(schedules).where(eq(schedules.id, id));
    await replaceScheduleJob(tx as unknown as Db, id, null);
  });
  await removeMediaIfUnused(ctx.db, storage, s.mediaKey);
  emitSchedule(ctx.realtime, ctx.companyId, s.userId, { action: 'delete', scheduleId: id });
}

/** A PNG or JPEG (by its bytes, spec part 2 §5), or null to remove the attachment. */
export async function setScheduleMedia(
  ctx: ServiceContext,
  storage: Storage,
  id: number,
  file: { data: Buffer; fileName: string } | null,
) {
  const { s } = await findRow(ctx, id);
  if (s.status === 'ENVIADA' || s.status === 'ENVIANDO') throw new AppError('ERR_SCHEDULE_SENT');
  const kind = file ? imageKindOf(file.data) : null;
  if (file && !kind) throw new AppError('ERR_INVALID_IMAGE');
  const stem = file?.fileName.replace(/\.[^.]*$/, '') || 'imagem';
  const fileName = file ? `${stem}.${kind === 'png' ? 'png' : 'jpg'}` : null;
  const stored = file && fileName ? await storage.put(ctx.companyId, file.data, fileName) : null;
  await ctx.db
    .update(schedules)
    .set({
      mediaKey: stored?.key ?? null,
      mediaName: fileName,
      mediaMime: kind ? `image/${kind}` : null,
    })
    .where(eq(schedules.id, id));
  await removeMediaIfUnused(ctx.db, storage, s.mediaKey);
  const record = (await viewSchedule(ctx.db, id)) as Schedule;
  emitSchedule(ctx.realtime, ctx.companyId, record.userId, { action: 'update', schedules: record });
  return record;
}
