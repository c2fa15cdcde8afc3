import { companyEvent, type FileList, type FileListInput, type FileOption } from '@balcao/shared';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { FormFile } from '../../platform/http/multipart.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import { fileKindOf } from '../../platform/storage/file-kinds.js';
import { mediaUrlOf, type Storage } from '../../platform/storage/storage.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { assertOwned } from '../../platform/tenancy/owned.js';
import { fileListOptions, fileLists } from './files.schema.js';

type ListRow = typeof fileLists.$inferSelect;
type OptionRow = typeof fileListOptions.$inferSelect;

/** The campaign dialog reads every list at once; a company with more is unlikely and still bounded. */
const WHOLE_LIST_CAP = 1000;

const toOption = (o: OptionRow): FileOption => ({
  id: o.id,
  name: o.name,
  path: o.mediaKey ? mediaUrlOf(o.mediaKey) : null,
  mediaType: o.mediaType,
  fileName: o.fileName,
});

const toFileList = (r: ListRow, options: OptionRow[]): FileList => ({
  id: r.id,
  name: r.name,
  message: r.message,
  userId: r.userId,
  options: options.filter((o) => o.fileListId === r.id).map(toOption),
});

async function optionsOf(db: Db, companyId: number, listIds: number[]) {
  if (listIds.length === 0) return [];
  return db
    .select()
    .from(fileListOptions)
    .where(and(eq(fileListOptions.companyId, companyId), inArray(fileListOptions.fileListId, listIds)))
    .orderBy(asc(fileListOptions.position), asc(fileListOptions.id));
}

/** Every list reads the same way, so any member can pick one on a ticket or a campaign. */
const emit = (ctx: ServiceContext, payload: object) =>
  ctx.realtime.toCompany(ctx.companyId, companyEvent.file(ctx.companyId), payload);

export async function listFileLists(
  ctx: ServiceContext,
  q: { searchParam: string; pageNumber: number; companyId?: number },
) {
  const whole = q.companyId !== undefined && !q.searchParam;
  const { limit, offset, size } = whole
    ? { limit: WHOLE_LIST_CAP, offset: 0, size: WHOLE_LIST_CAP }
    : pageWindow(q.pageNumber);
  const where = and(
    eq(fileLists.companyId, ctx.companyId),
    q.searchParam ? sql`lower(${fileLists.name}) like ${likePattern(q.searchParam)}` : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(fileLists)
      .where(where)
      .orderBy(asc(sql`lower(${fileLists.name})`), asc(fileLists.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ total: count() }).from(fileLists).where(where),
  ]);
  const page = pageOf(rows, size);
  const options = await optionsOf(
    ctx.db,
    ctx.companyId,
    page.items.map((r) => r.id),
  );
  return { files: page.items.map((r) => toFileList(r, options)), count: total, hasMore: page.hasMore };
}

async function findRow(ctx: ServiceContext, id: number): Promise<ListRow> {
  const [row] = await ctx.db
    .select()
    .from(fileLists)
    .where(and(eq(fileLists.id, id), eq(fileLists.companyId, ctx.companyId)));
  if (!row) throw new AppError('ERR_NO_FILE_LIST_FOUND');
  return row;
}

async function viewOf(ctx: ServiceContext, row: ListRow) {
  return toFileList(row, await optionsOf(ctx.db, ctx.companyId, [row.id]));
}

export const findFileList = async (ctx: ServiceContext, id: number) => viewOf(ctx, await findRow(ctx, id));

export async function createFileList(ctx: ServiceContext, input: FileListInput): Promise<FileList> {
  const row = await ctx.db.transaction(async (tx) => {
    const [list] = await tx
      .insert(fileLists)
      .values({ companyId: ctx.companyId, userId: ctx.userId, name: input.name, message: input.message })
      .returning();
    if (input.options.length > 0) {
      await tx.insert(fileListOptions).values(
        input.options.map((o, position) => ({
          companyId: ctx.companyId,
          fileListId: list.id,
          name: o.name,
          position,
        })),
      );
    }
    return list;
  });
  const record = await viewOf(ctx, row);
  emit(ctx, { action: 'create', record });
  return record;
}

/**
 * Name and message as given; `options`, when given, is the whole list of rows: those with an id of this
 * list are renamed and reordered, those without are added, the others deleted with their files.
 */
export async function updateFileList(
  ctx: ServiceContext,
  storage: Storage,
  id: number,
  input: Partial<FileListInput>,
): Promise<FileList> {
  await findRow(ctx, id);
  const removedKeys = await ctx.db.transaction(async (tx) => {
    if (input.name !== undefined || input.message !== undefined) {
      await tx
        .update(fileLists)
        .set({ name: input.name, message: input.message })
        .where(and(eq(fileLists.id, id), eq(fileLists.companyId, ctx.companyId)));
    }
    if (!input.options) return [];
    const current = await optionsOf(tx as unknown as Db, ctx.companyId, [id]);
    const currentIds = new Set(current.map((o) => o.id));
    const keptIds = new Set<number>();
    for (const o of input.options) {
      if (o.id === undefined) continue;
      if (!currentIds.has(o.id)) throw new AppError('ERR_VALIDATION', {}, `Option ${o.id} is not of this list`);
      keptIds.add(o.id);
    }
    const removed = current.filter((o) => !keptIds.has(o.id));
    if (removed.length > 0) {
      await tx.delete(fileListOptions).where(
        inArray(
          fileListOptions.id,
          removed.map((o) => o.id),
        ),
      );
    }
    for (const [position, o] of input.options.entries()) {
      if (o.id === undefined) {
        await tx.insert(fileListOptions).values({ companyId: ctx.companyId, fileListId: id, name: o.name, position });
      } else {
        await tx.update(fileListOptions).set({ name: o.name, position }).where(eq(fileListOptions.id, o.id));
      }
    }
    return removed.flatMap((o) => (o.mediaKey ? [o.mediaKey] : []));
  });
  // Files go only once the rows that named them are gone: a failed update keeps both.
  await Promise.all(removedKeys.map((key) => storage.remove(key)));
  const record = await findFileList(ctx, id);
  emit(ctx, { action: 'update', record });
  return record;
}

/**
 * The files of a list's options: `uploads[i].optionId` names the option `uploads[i].file` goes to.
 * Every file is checked by its bytes before any is stored, so a refused one leaves the list as it was;
 * a replaced file is removed once its option points to the new one.
 */
export async function uploadFileListOptions(
  ctx: ServiceContext,
  storage: Storage,
  id: number,
  uploads: { optionId: number; file: FormFile }[],
): Promise<FileList> {
  await findRow(ctx, id);
  if (uploads.length === 0) throw new AppError('ERR_VALIDATION', {}, 'files is required');
  const options = new Map((await optionsOf(ctx.db, ctx.companyId, [id])).map((o) => [o.id, o]));
  const checked = uploads.map(({ optionId, file }) => {
    if (!options.has(optionId)) throw new AppError('ERR_VALIDATION', {}, `Option ${optionId} is not of this list`);
    const kind = fileKindOf(file.data, file.fileName);
    if (!kind) throw new AppError('ERR_INVALID_FILE_TYPE', {}, `${file.fileName} is not an accepted file type`);
    return { optionId, file, kind };
  });
  const replaced: string[] = [];
  for (const { optionId, file, kind } of checked) {
    // The key's extension is the detected type's: the client's name is metadata only.
    const { key } = await storage.put(ctx.companyId, file.data, `file${kind.ext}`);
    await ctx.db
      .update(fileListOptions)
      .set({ mediaKey: key, mediaType: kind.mime, fileName: file.fileName })
      .where(eq(fileListOptions.id, optionId));
    const before = options.get(optionId)?.mediaKey;
    if (before) replaced.push(before);
    options.set(optionId, { ...(options.get(optionId) as OptionRow), mediaKey: key });
  }
  await Promise.all(replaced.map((key) => storage.remove(key)));
  const record = await findFileList(ctx, id);
  emit(ctx, { action: 'update', record });
  return record;
}

export async function deleteFileList(ctx: ServiceContext, storage: Storage, id: number): Promise<void> {
  await findRow(ctx, id);
  const options = await optionsOf(ctx.db, ctx.companyId, [id]);
  await ctx.db.delete(fileLists).where(and(eq(fileLists.id, id), eq(fileLists.companyId, ctx.companyId)));
  await Promise.all(options.flatMap((o) => (o.mediaKey ? [storage.remove(o.mediaKey)] : [])));
  emit(ctx, { action: 'delete', id });
}

/** A stored option file, as tickets, campaigns and the external API send it. */
export interface FileListOptionFile {
  id: number;
  name: string;
  /** Storage key (open it with `Storage.open`). */
  key: string;
  /** The uploaded name, for the recipient. */
  fileName: string;
  mediaType: string;
}

const toOptionFile = (o: OptionRow): FileListOptionFile[] =>
  o.mediaKey && o.mediaType
    ? [{ id: o.id, name: o.name, key: o.mediaKey, fileName: o.fileName ?? o.name, mediaType: o.mediaType }]
    : [];

/**
 * The one storage lookup of file lists (DOMAIN §15): the files of a company's list in their order,
 * options without an uploaded file left out; empty for a list of another company or none.
 */
export async function fileOptionsOf(db: Db, companyId: number, fileListId: number): Promise<FileListOptionFile[]> {
  return (await optionsOf(db, companyId, [fileListId])).flatMap(toOptionFile);
}

/**
 * A list's message and copies of its files, in order, for messages of a ticket: the files come through
 * the one lookup (`fileOptionsOf`) and are copied under new keys, so the ticket's history keeps them when
 * the list changes or is deleted. ERR_NO_FILE_LIST_FOUND for a list of another company or none.
 */
export async function copyFileListFiles(ctx: ServiceContext, storage: Storage, id: number) {
  const list = await findRow(ctx, id);
  const files = await fileOptionsOf(ctx.db, ctx.companyId, id);
  if (files.length === 0) throw new AppError('ERR_VALIDATION', {}, 'This file list has no files yet');
  const copies: { key: string; fileName: string; mimetype: string }[] = [];
  try {
    for (const file of files) {
      const stored = await storage.open(file.key);
      if (!stored) throw new AppError('ERR_MEDIA_NOT_FOUND');
      // The copy's key takes the stored key's extension (the detected type's), never the client's name.
      const { key } = await storage.put(ctx.companyId, stored.stream, file.key);
      copies.push({ key, fileName: file.fileName, mimetype: file.mediaType });
    }
  } catch (err) {
    await Promise.all(copies.map((c) => storage.remove(c.key)));
    throw err;
  }
  return { message: list.message, files: copies };
}

/** One option's file by the option's id, or null when it is not the company's or has no file yet. */
export async function fileOptionOf(db: Db, companyId: number, optionId: number): Promise<FileListOptionFile | null> {
  const [row] = await db
    .select()
    .from(fileListOptions)
    .where(and(eq(fileListOptions.id, optionId), eq(fileListOptions.companyId, companyId)));
  return row ? (toOptionFile(row)[0] ?? null) : null;
}

/** The id names a file list of the company (what a campaign refers to). */
export const assertFileListOf = (db: Db, companyId: number, id: number | null | undefined) =>
  assertOwned(db, fileLists, companyId, [id], 'ERR_NO_FILE_LIST_FOUND');
