import { companyEvent, type QuickMessage } from '@balcao/shared';
import { and, asc, count, eq, or, sql } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import { rooms } from '../../platform/realtime/realtime.js';
import type { Storage } from '../../platform/storage/storage.js';
import { isAdmin, type ServiceContext } from '../../platform/tenancy/context.js';
import { mediaUrlOf } from '../messages/messages.view.js';
import { quickMessages } from './quick-messages.schema.js';

type Row = typeof quickMessages.$inferSelect;
type Input = { shortcode: string; message: string; geral: boolean };

const toQuickMessage = (r: Row): QuickMessage => ({
  id: r.id,
  shortcode: r.shortcode,
  message: r.message,
  geral: r.geral,
  userId: r.userId,
  isMedia: r.mediaKey !== null,
  mediaUrl: mediaUrlOf(r.mediaKey),
  mediaName: r.mediaName,
});

/** Company-wide quick messages plus the caller's own. */
const usable = (ctx: ServiceContext) =>
  and(
    eq(quickMessages.companyId, ctx.companyId),
    or(eq(quickMessages.geral, true), eq(quickMessages.userId, ctx.userId)),
  );

export async function listQuickMessages(ctx: ServiceContext, q: { searchParam: string; pageNumber: number }) {
  const { limit, offset, size } = pageWindow(q.pageNumber);
  const term = likePattern(q.searchParam);
  const where = and(
    usable(ctx),
    q.searchParam
      ? or(sql`lower(${quickMessages.shortcode}) like ${term}`, sql`lower(${quickMessages.message}) like ${term}`)
      : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(quickMessages)
      .where(where)
      .orderBy(asc(sql`lower(${quickMessages.shortcode})`), asc(quickMessages.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ total: count() }).from(quickMessages).where(where),
  ]);
  const page = pageOf(rows, size);
  return { records: page.items.map(toQuickMessage), count: total, hasMore: page.hasMore };
}

/** Every quick message the caller may use, for the `/` suggestions of the message input. */
export async function allQuickMessages(ctx: ServiceContext) {
  const rows = await ctx.db
    .select()
    .from(quickMessages)
    .where(usable(ctx))
    .orderBy(asc(sql`lower(${quickMessages.shortcode})`))
    .limit(1000);
  return rows.map(toQuickMessage);
}

async function findRow(ctx: ServiceContext, id: number, forWrite = false): Promise<Row> {
  const [row] = await ctx.db
    .select()
    .from(quickMessages)
    .where(and(eq(quickMessages.id, id), usable(ctx)));
  if (!row) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND');
  if (forWrite && row.userId !== ctx.userId && !isAdmin(ctx)) throw new AppError('ERR_NO_PERMISSION');
  return row;
}

export const findQuickMessage = async (ctx: ServiceContext, id: number) => toQuickMessage(await findRow(ctx, id));

/**
 * A copy of a usable quick message's file for a message to send, or null when it has none: the
 * message keeps its own file, so editing or deleting the quick message never breaks it.
 */
export async function copyQuickMessageMedia(ctx: ServiceContext, storage: Storage, id: number) {
  const row = await findRow(ctx, id);
  if (!row.mediaKey || !row.mediaName || !row.mediaMime) return null;
  const file = await storage.open(row.mediaKey);
  if (!file) return null;
  const { key } = await storage.put(ctx.companyId, file.stream, row.mediaName);
  return { key, fileName: row.mediaName, mimetype: row.mediaMime };
}

type Readable = Pick<Row, 'geral' | 'userId'>;

/** The rooms that may read a quick message, by the rule of `usable`: the company, or its owner. */
const readersOf = (ctx: ServiceContext, r: Readable) =>
  r.geral ? [rooms.company(ctx.companyId)] : r.userId === null ? [] : [rooms.user(r.userId)];

/** Tells the record's readers; when it became personal, the rest of the company drops it. */
function emit(ctx: ServiceContext, record: Readable & { id: number }, payload: object, before?: Readable) {
  const event = companyEvent.quickMessage(ctx.companyId);
  const readers = readersOf(ctx, record);
  ctx.realtime.toRooms(readers, event, payload);
  if (before?.geral && !record.geral) {
    ctx.realtime.toRooms([rooms.company(ctx.companyId)], event, { action: 'delete', id: record.id }, readers);
  }
}

export async function createQuickMessage(ctx: ServiceContext, input: Input): Promise<QuickMessage> {
  const [row] = await ctx.db
    .insert(quickMessages)
    .values({ ...input, companyId: ctx.companyId, userId: ctx.userId })
    .returning();
  const record = toQuickMessage(row);
  emit(ctx, row, { action: 'create', record });
  return record;
}

export async function updateQuickMessage(
  ctx: ServiceContext,
  id: number,
  input: Partial<Input>,
): Promise<QuickMessage> {
  const before = await findRow(ctx, id, true);
  const [row] = await ctx.db.update(quickMessages).set(input).where(eq(quickMessages.id, id)).returning();
  const record = toQuickMessage(row);
  emit(ctx, row, { action: 'update', record }, before);
  return record;
}

export async function deleteQuickMessage(ctx: ServiceContext, storage: Storage, id: number): Promise<void> {
  const row = await findRow(ctx, id, true);
  await ctx.db.delete(quickMessages).where(eq(quickMessages.id, id));
  if (row.mediaKey) await storage.remove(row.mediaKey);
  emit(ctx, row, { action: 'delete', id });
}

export async function setQuickMessageMedia(
  ctx: ServiceContext,
  storage: Storage,
  id: number,
  file: { data: Buffer; fileName: string; mimetype: string } | null,
): Promise<QuickMessage> {
  const row = await findRow(ctx, id, true);
  const stored = file ? await storage.put(ctx.companyId, file.data, file.fileName) : null;
  const [updated] = await ctx.db
    .update(quickMessages)
    .set({ mediaKey: stored?.key ?? null, mediaName: file?.fileName ?? null, mediaMime: file?.mimetype ?? null })
    .where(eq(quickMessages.id, id))
    .returning();
  if (row.mediaKey) await storage.remove(row.mediaKey);
  const record = toQuickMessage(updated);
  emit(ctx, updated, { action: 'update', record });
  return record;
}
