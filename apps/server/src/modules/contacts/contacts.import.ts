import {
  type ContactImport,
  type ContactImportEvent,
  companyEvent,
  IMPORT_EXTENSIONS,
  IMPORT_MAX_ROWS,
  NAME_LENGTH,
  NUMBER_LENGTH,
  normalizeNumber,
} from '@balcao/shared';
import type { WorkBook } from '@e965/xlsx';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Jobs } from '../../platform/jobs/jobs.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { readStored } from '../../platform/storage/read-stored.js';
import type { Storage } from '../../platform/storage/storage.js';
import { isAdmin, type ServiceContext } from '../../platform/tenancy/context.js';
import { csvLine, decodeText, parseCsv, UTF8_BOM } from './contacts.csv.js';
import { contactImports } from './contacts.schema.js';

export const IMPORT_QUEUE = 'contacts.import';
/** Rows stored per transaction; progress is reported after each. */
const CHUNK = 500;

/** One accepted row: the file's other columns travel as `extra` (extraInfo or list variables). */
export interface ImportRow {
  name: string;
  number: string;
  email: string;
  extra: Record<string, string>;
}

/** Where an import's rows go: the company's contacts, or one list's items (given by that module). */
export type ImportSink = (db: Db, companyId: number, rows: ImportRow[]) => Promise<void>;
export interface ImportTargets {
  contacts: ImportSink;
  /** A list's items; resolves after its rows are stored (the list module then queues its WhatsApp check). */
  list(contactListId: number): { store: ImportSink; finished(companyId: number): Promise<void> };
}

export interface ImportDeps {
  db: Db;
  realtime: Realtime;
  storage: Storage;
  jobs: Jobs;
}

type Field = 'name' | 'number' | 'email';
/** Lower case, no accents, no spaces or hyphens: `E-mail` → `email`, `Número` → `numero`. */
const fold = (h: string) =>
  h
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s_-]/g, '');
const HEADERS: Record<string, Field> = {
  nome: 'name',
  name: 'name',
  numero: 'number',
  number: 'number',
  telefone: 'number',
  celular: 'number',
  phone: 'number',
  whatsapp: 'number',
  email: 'email',
};
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const importExtension = (fileName: string) => {
  const ext = fileName.toLowerCase().match(/\.[a-z]+$/)?.[0] ?? '';
  return (IMPORT_EXTENSIONS as readonly string[]).includes(ext) ? ext : null;
};

/**
 * The sheet as rows of text: CSV by our parser (encoding, separator), xls/xlsx by SheetJS, formulas never
 * run. SheetJS is loaded by the first spreadsheet, not at boot.
 */
export async function readSheet(data: Buffer, fileName: string): Promise<string[][]> {
  if (importExtension(fileName) === '.csv') return parseCsv(decodeText(data));
  const XLSX = await import('@e965/xlsx');
  let book: WorkBook;
  try {
    book = XLSX.read(data, { type: 'buffer', cellFormula: false, cellHTML: false, sheetRows: IMPORT_MAX_ROWS + 2 });
  } catch {
    throw new AppError('ERR_IMPORT_FILE_UNREADABLE');
  }
  const sheet = book.Sheets[book.SheetNames[0]];
  if (!sheet) return [];
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, {
    header: 1,
    raw: false,
    // A 13-digit phone typed as a number would otherwise come out as "5.52191E+12".
    rawNumbers: true,
    defval: '',
    blankrows: false,
  });
  return rows.map((r) => r.map((v) => String(v ?? '')));
}

/** Rows checked and merged by number (a later row fills what an earlier one left empty). */
export function mapRows(sheet: string[][]): {
  headers: string[];
  /** The file's data rows, merged ones included. */
  rows: number;
  accepted: ImportRow[];
  rejected: { cells: string[]; reason: string }[];
} {
  const [headerRow = [], ...body] = sheet;
  const headers = headerRow.map((h) => h.trim());
  const fields = headers.map((h) => HEADERS[fold(h)]);
  if (!fields.includes('number')) throw new AppError('ERR_IMPORT_FILE_UNREADABLE', {}, 'No number column');
  if (body.length > IMPORT_MAX_ROWS) throw new AppError('ERR_IMPORT_TOO_MANY_ROWS');
  const byNumber = new Map<string, ImportRow>();
  const rejected: { cells: string[]; reason: string }[] = [];
  for (const cells of body) {
    const row: ImportRow = { name: '', number: '', email: '', extra: {} };
    headers.forEach((h, i) => {
      const value = (cells[i] ?? '').trim();
      const field = fields[i];
      if (field) row[field] ||= value;
      else if (h && value) row.extra[h.slice(0, 100)] = value.slice(0, 1000);
    });
    const raw = row.number;
    row.number = normalizeNumber(raw);
    const reason = !raw
      ? 'Número obrigatório'
      : row.number.length < NUMBER_LENGTH.min || raw.length > NUMBER_LENGTH.max
        ? 'Número inválido'
        : row.name.length < NAME_LENGTH.min
          ? 'Nome muito curto'
          : row.name.length > NAME_LENGTH.max
            ? 'Nome muito longo'
            : row.email && !EMAIL.test(row.email)
              ? 'E-mail inválido'
              : null;
    if (reason) {
      rejected.push({ cells, reason });
      continue;
    }
    row.email = row.email.toLowerCase();
    const seen = byNumber.get(row.number);
    if (seen) {
      seen.name = row.name;
      seen.email ||= row.email;
      Object.assign(seen.extra, row.extra);
    } else byNumber.set(row.number, row);
  }
  return { headers, rows: body.length, accepted: [...byNumber.values()], rejected };
}

const toImport = (r: typeof contactImports.$inferSelect): ContactImport => ({
  id: r.id,
  status: r.status,
  total: r.total,
  processed: r.processed,
  imported: r.imported,
  rejected: r.rejected,
  contactListId: r.contactListId,
  error: r.error,
});

async function importRow(db: Db, companyId: number, id: number) {
  const [row] = await db
    .select()
    .from(contactImports)
    .where(and(eq(contactImports.id, id), eq(contactImports.companyId, companyId)))
    .limit(1);
  return row;
}

/** An import the caller may follow: the uploader's own, or any of the company for an admin. */
export async function findImport(ctx: ServiceContext, id: number) {
  const row = await importRow(ctx.db, ctx.companyId, id);
  if (!row || (row.userId !== ctx.userId && !isAdmin(ctx))) throw new AppError('ERR_NO_IMPORT_FOUND');
  return row;
}
export const findImportView = async (ctx: ServiceContext, id: number) => toImport(await findImport(ctx, id));

/** Stores the file and queues the job: nothing is parsed in the request (DOMAIN §12). */
export async function startImport(
  ctx: ServiceContext,
  storage: Storage,
  file: { data: Buffer; fileName: string },
  contactListId: number | null,
): Promise<ContactImport> {
  if (!importExtension(file.fileName)) throw new AppError('ERR_IMPORT_FILE_TYPE');
  const stored = await storage.put(ctx.companyId, file.data, file.fileName);
  const [row] = await ctx.db
    .insert(contactImports)
    .values({
      companyId: ctx.companyId,
      userId: ctx.userId,
      contactListId,
      fileKey: stored.key,
      fileName: file.fileName,
    })
    .returning();
  await ctx.jobs.send(IMPORT_QUEUE, { importId: row.id, companyId: ctx.companyId }, { retryLimit: 2 });
  return toImport(row);
}

/** The job: parse, merge, store in chunks with live progress, then the rejected-rows file. */
export async function runImport(deps: ImportDeps, targets: ImportTargets, companyId: number, importId: number) {
  const row = await importRow(deps.db, companyId, importId);
  if (!row || row.status === 'done' || row.status === 'failed') return;
  const emit = (action: ContactImportEvent['action'], r: typeof contactImports.$inferSelect) =>
    deps.realtime.toUser(r.userId, companyEvent.contactImport(companyId), {
      action,
      import: toImport(r),
    } satisfies ContactImportEvent);
  const update = async (set: Partial<typeof contactImports.$inferInsert>) => {
    const [next] = await deps.db
      .update(contactImports)
      .set(set)
      .where(and(eq(contactImports.id, importId), eq(contactImports.companyId, companyId)))
      .returning();
    return next;
  };
  let parsed: ReturnType<typeof mapRows>;
  try {
    parsed = mapRows(await readSheet(await readStored(deps.storage, row.fileKey), row.fileName));
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    emit('failed', await update({ status: 'failed', error: err.code }));
    await deps.storage.remove(row.fileKey);
    return;
  }
  const { headers, accepted, rejected, rows: total } = parsed;
  const target = row.contactListId === null ? null : targets.list(row.contactListId);
  const store = target ? target.store : targets.contacts;
  // Rejected rows and rows merged into an earlier one count as processed from the start.
  let processed = total - accepted.length;
  emit('progress', await update({ status: 'running', total, processed, rejected: rejected.length }));
  for (let i = 0; i < accepted.length; i += CHUNK) {
    const chunk = accepted.slice(i, i + CHUNK);
    await deps.db.transaction((tx) => store(tx as unknown as Db, companyId, chunk));
    processed += chunk.length;
    emit('progress', await update({ processed, imported: processed - total + accepted.length }));
  }
  let rejectedKey: string | null = null;
  if (rejected.length) {
    const text =
      UTF8_BOM + csvLine([...headers, 'motivo']) + rejected.map((r) => csvLine([...r.cells, r.reason])).join('');
    rejectedKey = (await deps.storage.put(companyId, Buffer.from(text, 'utf8'), 'rejeitados.csv')).key;
  }
  const done = await update({ status: 'done', rejectedKey });
  await deps.storage.remove(row.fileKey);
  emit('done', done);
  if (target) await target.finished(companyId);
}

export async function registerImportJob(deps: ImportDeps, targets: ImportTargets) {
  await deps.jobs.work<{ importId: number; companyId: number }>(IMPORT_QUEUE, (job) =>
    runImport(deps, targets, job.companyId, job.importId),
  );
}
