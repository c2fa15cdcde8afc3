import { type Help, type HelpInput, type HelpUpdate, youtubeVideoId } from '@balcao/shared';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import { helps } from './helps.schema.js';

const helpColumns = { id: helps.id, title: helps.title, description: helps.description, video: helps.video };

/** DOMAIN §15: a YouTube link or id in, only the validated id stored. */
function videoIdOf(video: string): string {
  const id = youtubeVideoId(video);
  if (!id) throw new AppError('ERR_INVALID_VIDEO', {}, 'video: not a YouTube link or 11-character video id');
  return id;
}

export async function listHelps(db: Db, q: { searchParam: string; pageNumber: number }) {
  const { limit, offset, size } = pageWindow(q.pageNumber);
  const where = q.searchParam ? sql`lower(${helps.title}) like ${likePattern(q.searchParam)}` : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(helpColumns)
      .from(helps)
      .where(where)
      .orderBy(asc(helps.title), asc(helps.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(helps).where(where),
  ]);
  const page = pageOf(rows, size);
  return { helps: page.items, count: total, hasMore: page.hasMore };
}

export function allHelps(db: Db): Promise<Help[]> {
  return db.select(helpColumns).from(helps).orderBy(asc(helps.title), asc(helps.id));
}

export async function findHelp(db: Db, id: number): Promise<Help> {
  const [row] = await db.select(helpColumns).from(helps).where(eq(helps.id, id));
  if (!row) throw new AppError('ERR_NO_HELP_FOUND');
  return row;
}

export async function createHelp(db: Db, input: HelpInput): Promise<Help> {
  const [row] = await db
    .insert(helps)
    .values({ ...input, video: videoIdOf(input.video) })
    .returning(helpColumns);
  return row;
}

export async function updateHelp(db: Db, id: number, input: HelpUpdate): Promise<Help> {
  const fields = input.video === undefined ? input : { ...input, video: videoIdOf(input.video) };
  const [row] = await db.update(helps).set(fields).where(eq(helps.id, id)).returning(helpColumns);
  if (!row) throw new AppError('ERR_NO_HELP_FOUND');
  return row;
}

export async function deleteHelp(db: Db, id: number): Promise<void> {
  const [row] = await db.delete(helps).where(eq(helps.id, id)).returning({ id: helps.id });
  if (!row) throw new AppError('ERR_NO_HELP_FOUND');
}
