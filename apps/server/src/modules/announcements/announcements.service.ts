import path from 'node:path';
import { ANNOUNCEMENT_EVENT, type Announcement, type AnnouncementEvent, type AnnouncementInput } from '@balcao/shared';
import { count, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.js';
import type { FormFile } from '../../platform/http/multipart.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import { rooms } from '../../platform/realtime/realtime.js';
import { imageKindOf } from '../../platform/storage/images.js';
import type { Storage } from '../../platform/storage/storage.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { announcements } from './announcements.schema.js';

type Row = typeof announcements.$inferSelect;

/** The file part of a key: the media URL changes with the file, so a client may cache it for good. */
const fileOf = (key: string) => path.posix.basename(key);

const toAnnouncement = (r: Row): Announcement => ({
  id: r.id,
  title: r.title,
  text: r.text,
  priority: r.priority,
  status: r.status,
  mediaPath: r.mediaKey ? `/announcements/${r.id}/media/${fileOf(r.mediaKey)}` : null,
  mediaName: r.mediaName,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** The routes already require it; the rule lives here too so no other caller can skip it. */
function assertSuper(ctx: ServiceContext) {
  if (!ctx.isSuper) throw new AppError('ERR_NO_PERMISSION');
}

async function page(ctx: ServiceContext, where: SQL | undefined, pageNumber: number) {
  const { limit, offset, size } = pageWindow(pageNumber);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(announcements).where(where).orderBy(desc(announcements.id)).limit(limit).offset(offset),
    ctx.db.select({ total: count() }).from(announcements).where(where),
  ]);
  const { items, hasMore } = pageOf(rows, size);
  return { records: items.map(toAnnouncement), count: total, hasMore };
}

/** The super user's list: every announcement, newest first, searched in title and text. */
export function listAnnouncements(ctx: ServiceContext, q: { searchParam: string; pageNumber: number }) {
  assertSuper(ctx);
  const term = likePattern(q.searchParam);
  const where = q.searchParam
    ? or(sql`lower(${announcements.title}) like ${term}`, sql`lower(${announcements.text}) like ${term}`)
    : undefined;
  return page(ctx, where, q.pageNumber);
}

/** What every signed-in user reads (the top bar): active announcements only, newest first. */
export function listActiveAnnouncements(ctx: ServiceContext, q: { pageNumber: number }) {
  return page(ctx, eq(announcements.status, true), q.pageNumber);
}

async function findRow(ctx: ServiceContext, id: number): Promise<Row> {
  const [row] = await ctx.db.select().from(announcements).where(eq(announcements.id, id));
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  return row;
}

export async function findAnnouncement(ctx: ServiceContext, id: number): Promise<Announcement> {
  assertSuper(ctx);
  return toAnnouncement(await findRow(ctx, id));
}

/**
 * `company-announcement` to those who may read the record: an active one to every signed-in
 * socket, an inactive one to the super users only. One that stops being active is a `delete` for
 * everyone else, so it leaves their popovers at once.
 */
function tell(ctx: ServiceContext, action: AnnouncementEvent['action'], row: Row, wasActive: boolean) {
  const emit = (roomNames: string[], payload: AnnouncementEvent, except?: string[]) =>
    ctx.realtime.toRooms(roomNames, ANNOUNCEMENT_EVENT, payload, except);
  if (action === 'delete') {
    emit([wasActive ? rooms.everyone : rooms.supers], { action, id: row.id });
    return;
  }
  const payload: AnnouncementEvent = { action, record: toAnnouncement(row) };
  if (row.status) {
    emit([rooms.everyone], payload);
    return;
  }
  emit([rooms.supers], payload);
  if (wasActive) emit([rooms.everyone], { action: 'delete', id: row.id }, [rooms.supers]);
}

export async function createAnnouncement(ctx: ServiceContext, input: AnnouncementInput): Promise<Announcement> {
  assertSuper(ctx);
  const [row] = await ctx.db.insert(announcements).values(input).returning();
  tell(ctx, 'create', row, false);
  return toAnnouncement(row);
}

export async function updateAnnouncement(
  ctx: ServiceContext,
  id: number,
  input: Partial<AnnouncementInput>,
): Promise<Announcement> {
  assertSuper(ctx);
  const before = await findRow(ctx, id);
  const [row] = await ctx.db.update(announcements).set(input).where(eq(announcements.id, id)).returning();
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  tell(ctx, 'update', row, before.status);
  return toAnnouncement(row);
}

export async function deleteAnnouncement(ctx: ServiceContext, storage: Storage, id: number): Promise<void> {
  assertSuper(ctx);
  const [row] = await ctx.db.delete(announcements).where(eq(announcements.id, id)).returning();
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  if (row.mediaKey) await storage.remove(row.mediaKey);
  tell(ctx, 'delete', row, row.status);
}

/**
 * Attaches a PNG or JPEG (by its bytes: a renamed file of any other kind is ERR_INVALID_IMAGE), or
 * removes the attachment with `null`. The stored key takes the extension of what the bytes are, so
 * the file is served with the right type whatever the client called it.
 */
export async function setAnnouncementMedia(
  ctx: ServiceContext,
  storage: Storage,
  id: number,
  file: FormFile | null,
): Promise<Announcement> {
  assertSuper(ctx);
  const kind = file ? imageKindOf(file.data) : null;
  if (file && !kind) throw new AppError('ERR_INVALID_IMAGE');
  const before = await findRow(ctx, id);
  const stored = file ? await storage.put(ctx.companyId, file.data, kind === 'png' ? 'a.png' : 'a.jpg') : null;
  const [row] = await ctx.db
    .update(announcements)
    .set({ mediaKey: stored?.key ?? null, mediaName: file?.fileName ?? null })
    .where(eq(announcements.id, id))
    .returning();
  if (!row) {
    if (stored) await storage.remove(stored.key);
    throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  }
  if (before.mediaKey) await storage.remove(before.mediaKey);
  tell(ctx, 'update', row, before.status);
  return toAnnouncement(row);
}

/**
 * The stored image behind a `mediaPath`, for any signed-in user while the announcement is active
 * (the super users always): announcements are read across companies, so `/media/{key}`, which
 * serves a key to its own company only, cannot serve them. A stale file name is not found.
 */
export async function announcementMediaKey(ctx: ServiceContext, id: number, file: string): Promise<string> {
  const [row] = await ctx.db
    .select({ key: announcements.mediaKey, status: announcements.status })
    .from(announcements)
    .where(eq(announcements.id, id));
  if (!row?.key || fileOf(row.key) !== file || !(row.status || ctx.isSuper)) throw new AppError('ERR_MEDIA_NOT_FOUND');
  return row.key;
}
