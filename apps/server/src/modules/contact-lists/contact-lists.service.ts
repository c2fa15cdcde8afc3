import {
  type ContactList,
  type ContactListItem,
  type ContactListItemInput,
  type CrudAction,
  companyEvent,
  ninthDigitVariants,
} from '@balcao/shared';
import { and, asc, count, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Jobs } from '../../platform/jobs/jobs.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { isAdmin, type ServiceContext } from '../../platform/tenancy/context.js';
import { assertOwned } from '../../platform/tenancy/owned.js';
import type { ImportRow } from '../contacts/contacts.import.js';
import { contactListItems, contactLists } from './contact-lists.schema.js';

export const VALIDATE_QUEUE = 'contact-lists.validate';

type Emit = Pick<ServiceContext, 'companyId' | 'realtime'>;
const emitList = (ctx: Emit, action: CrudAction, payload: object) =>
  ctx.realtime.toCompany(ctx.companyId, companyEvent.contactList(ctx.companyId), { action, ...payload });
const emitItem = (ctx: Emit, action: CrudAction, payload: object) =>
  ctx.realtime.toCompany(ctx.companyId, companyEvent.contactListItem(ctx.companyId), { action, ...payload });

// ---- lists ----

/** A list with its counts, which triggers keep on its row (migration 0026). */
function toList(r: typeof contactLists.$inferSelect): ContactList {
  return {
    id: r.id,
    name: r.name,
    companyId: r.companyId,
    contactsCount: r.contactsCount,
    validCount: r.validCount,
    invalidCount: r.invalidCount,
    uncheckedCount: r.contactsCount - r.validCount - r.invalidCount,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

async function listRow(db: Db, companyId: number, id: number) {
  const [row] = await db
    .select()
    .from(contactLists)
    .where(and(eq(contactLists.id, id), eq(contactLists.companyId, companyId)))
    .limit(1);
  if (!row) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  return row;
}

export async function findContactList(db: Db, companyId: number, id: number): Promise<ContactList> {
  return toList(await listRow(db, companyId, id));
}

export async function listContactLists(ctx: ServiceContext, q: { searchParam: string; pageNumber: number }) {
  const { limit, offset, size } = pageWindow(q.pageNumber);
  const where = and(
    eq(contactLists.companyId, ctx.companyId),
    q.searchParam ? sql`lower(${contactLists.name}) like ${likePattern(q.searchParam)}` : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(contactLists)
      .where(where)
      .orderBy(sql`lower(${contactLists.name})`, asc(contactLists.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ total: count() }).from(contactLists).where(where),
  ]);
  const page = pageOf(rows, size);
  return { records: page.items.map(toList), count: total, hasMore: page.hasMore };
}

/** `GET /contact-lists/list`: every list of the company, id and name (the campaign dialog's select). */
export function allContactLists(db: Db, companyId: number) {
  return db
    .select({ id: contactLists.id, name: contactLists.name })
    .from(contactLists)
    .where(eq(contactLists.companyId, companyId))
    .orderBy(sql`lower(${contactLists.name})`, asc(contactLists.id));
}

export async function createContactList(ctx: ServiceContext, input: { name: string }) {
  const [row] = await ctx.db
    .insert(contactLists)
    .values({ companyId: ctx.companyId, name: input.name })
    .returning({ id: contactLists.id });
  const record = await findContactList(ctx.db, ctx.companyId, row.id);
  emitList(ctx, 'create', { record });
  return record;
}

export async function updateContactList(ctx: ServiceContext, id: number, input: { name?: string }) {
  await listRow(ctx.db, ctx.companyId, id);
  await ctx.db
    .update(contactLists)
    .set(input)
    .where(and(eq(contactLists.id, id), eq(contactLists.companyId, ctx.companyId)));
  const record = await findContactList(ctx.db, ctx.companyId, id);
  emitList(ctx, 'update', { record });
  return record;
}

export async function deleteContactList(ctx: ServiceContext, id: number) {
  if (!isAdmin(ctx)) throw new AppError('ERR_NO_PERMISSION');
  await listRow(ctx.db, ctx.companyId, id);
  await ctx.db.delete(contactLists).where(and(eq(contactLists.id, id), eq(contactLists.companyId, ctx.companyId)));
  emitList(ctx, 'delete', { id });
}

/** A list's counts changed (items added, removed or checked): its row is sent again. */
async function emitListCounts(db: Db, ctx: Emit, id: number) {
  const [row] = await db.select().from(contactLists).where(eq(contactLists.id, id)).limit(1);
  if (row) emitList(ctx, 'update', { record: toList(row) });
}

// ---- items ----

const toItem = (r: typeof contactListItems.$inferSelect): ContactListItem => ({
  id: r.id,
  name: r.name,
  number: r.number,
  email: r.email,
  isWhatsappValid: r.isWhatsappValid,
  variables: r.variables,
  contactListId: r.contactListId,
  companyId: r.companyId,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

async function itemRow(db: Db, companyId: number, id: number) {
  const [row] = await db
    .select()
    .from(contactListItems)
    .where(and(eq(contactListItems.id, id), eq(contactListItems.companyId, companyId)))
    .limit(1);
  if (!row) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  return row;
}

export const findContactListItem = async (db: Db, companyId: number, id: number) =>
  toItem(await itemRow(db, companyId, id));

export async function listContactListItems(
  ctx: ServiceContext,
  q: { searchParam: string; pageNumber: number; contactListId: number },
) {
  const list = await listRow(ctx.db, ctx.companyId, q.contactListId);
  const { limit, offset, size } = pageWindow(q.pageNumber);
  const where = and(
    eq(contactListItems.contactListId, q.contactListId),
    eq(contactListItems.companyId, ctx.companyId),
    q.searchParam
      ? or(
          sql`lower(${contactListItems.name}) like ${likePattern(q.searchParam)}`,
          sql`${contactListItems.number} like ${likePattern(q.searchParam)}`,
        )
      : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(contactListItems)
      .where(where)
      .orderBy(sql`lower(${contactListItems.name})`, asc(contactListItems.id))
      .limit(limit)
      .offset(offset),
    // The whole list's size is kept on its row; a search counts its matches.
    q.searchParam
      ? ctx.db.select({ total: count() }).from(contactListItems).where(where)
      : [{ total: list.contactsCount }],
  ]);
  const page = pageOf(rows, size);
  return { contacts: page.items.map(toItem), count: total, hasMore: page.hasMore };
}

const queueCheck = (jobs: Jobs, companyId: number, contactListId: number) =>
  jobs.send(VALIDATE_QUEUE, { companyId, contactListId }, { singletonKey: `list-${contactListId}`, retryLimit: 3 });

async function refuseDuplicate(db: Db, contactListId: number, number: string, id?: number) {
  const [other] = await db
    .select({ id: contactListItems.id })
    .from(contactListItems)
    .where(and(eq(contactListItems.contactListId, contactListId), eq(contactListItems.number, number)))
    .limit(1);
  if (other && other.id !== id) throw new AppError('ERR_DUPLICATED_CONTACT');
}

export async function createContactListItem(ctx: ServiceContext, input: ContactListItemInput) {
  await listRow(ctx.db, ctx.companyId, input.contactListId);
  await refuseDuplicate(ctx.db, input.contactListId, input.number);
  const [row] = await ctx.db
    .insert(contactListItems)
    .values({ ...input, companyId: ctx.companyId })
    .returning();
  const record = toItem(row);
  emitItem(ctx, 'create', { record });
  await emitListCounts(ctx.db, ctx, row.contactListId);
  await queueCheck(ctx.jobs, ctx.companyId, row.contactListId);
  return record;
}

export async function updateContactListItem(
  ctx: ServiceContext,
  id: number,
  input: Partial<Omit<ContactListItemInput, 'contactListId'>>,
) {
  const current = await itemRow(ctx.db, ctx.companyId, id);
  const renumbered = input.number !== undefined && input.number !== current.number;
  if (renumbered) await refuseDuplicate(ctx.db, current.contactListId, input.number as string, id);
  const [row] = await ctx.db
    .update(contactListItems)
    .set({ ...input, ...(renumbered ? { isWhatsappValid: null } : {}) })
    .where(and(eq(contactListItems.id, id), eq(contactListItems.companyId, ctx.companyId)))
    .returning();
  const record = toItem(row);
  emitItem(ctx, 'update', { record });
  if (renumbered) {
    await emitListCounts(ctx.db, ctx, row.contactListId);
    await queueCheck(ctx.jobs, ctx.companyId, row.contactListId);
  }
  return record;
}

export async function deleteContactListItem(ctx: ServiceContext, id: number) {
  const current = await itemRow(ctx.db, ctx.companyId, id);
  await ctx.db
    .delete(contactListItems)
    .where(and(eq(contactListItems.id, id), eq(contactListItems.companyId, ctx.companyId)));
  emitItem(ctx, 'delete', { id });
  await emitListCounts(ctx.db, ctx, current.contactListId);
}

// ---- import and WhatsApp check (DOMAIN §12) ----

/** The list module's side of an import: upsert on (list, number), then the paced check. */
export function listImportTarget(deps: { realtime: Realtime; jobs: Jobs; db: Db }, contactListId: number) {
  return {
    async store(db: Db, companyId: number, rows: ImportRow[]) {
      await listRow(db, companyId, contactListId);
      await db.execute(sql`
        insert into ${contactListItems} (company_id, contact_list_id, name, number, email, variables)
        select ${companyId}, ${contactListId}, t.name, t.number, t.email, t.variables
        from unnest(${sql.param(rows.map((r) => r.name))}::varchar[], ${sql.param(rows.map((r) => r.number))}::varchar[],
          ${sql.param(rows.map((r) => r.email))}::varchar[], ${sql.param(rows.map((r) => JSON.stringify(r.extra)))}::jsonb[])
          as t(name, number, email, variables)
        on conflict (contact_list_id, number) do update set
          name = excluded.name,
          email = coalesce(nullif(excluded.email, ''), ${contactListItems.email}),
          variables = ${contactListItems.variables} || excluded.variables,
          updated_at = now()`);
    },
    async finished(companyId: number) {
      await emitListCounts(deps.db, { companyId, realtime: deps.realtime }, contactListId);
      await queueCheck(deps.jobs, companyId, contactListId);
    },
  };
}

export interface NumberChecker {
  /** A live channel of the company that can check numbers, or null (left unchecked until one is). */
  channelOf(companyId: number): Promise<{ checkNumber(n: string): Promise<{ exists: boolean; jid?: string }> } | null>;
  gapMs: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Asks WhatsApp about each unchecked item, one at a time with a gap: the first variant it knows
 * (with or without Brazil's ninth digit) becomes the stored number. A number that then equals
 * another item of the list is that item: the duplicate is removed.
 */
export async function checkListNumbers(
  deps: { db: Db; realtime: Realtime },
  checker: NumberChecker,
  companyId: number,
  contactListId: number,
) {
  const channel = await checker.channelOf(companyId);
  if (!channel) return;
  const sleep = checker.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const ctx = { companyId, realtime: deps.realtime };
  let first = true;
  for (;;) {
    const batch = await deps.db
      .select()
      .from(contactListItems)
      .where(
        and(
          eq(contactListItems.contactListId, contactListId),
          eq(contactListItems.companyId, companyId),
          isNull(contactListItems.isWhatsappValid),
        ),
      )
      .orderBy(asc(contactListItems.id))
      .limit(50);
    if (batch.length === 0) break;
    for (const item of batch) {
      if (!first) await sleep(checker.gapMs);
      first = false;
      let canonical: string | null = null;
      for (const variant of ninthDigitVariants(item.number)) {
        const r = await channel.checkNumber(variant);
        if (r.exists) {
          canonical = (r.jid ?? variant).split('@')[0].replace(/\D/g, '') || variant;
          break;
        }
      }
      const number = canonical ?? item.number;
      if (number !== item.number) {
        const [twin] = await deps.db
          .select({ id: contactListItems.id })
          .from(contactListItems)
          .where(and(eq(contactListItems.contactListId, contactListId), eq(contactListItems.number, number)))
          .limit(1);
        if (twin) {
          await deps.db.delete(contactListItems).where(eq(contactListItems.id, item.id));
          emitItem(ctx, 'delete', { id: item.id });
          continue;
        }
      }
      const [row] = await deps.db
        .update(contactListItems)
        .set({ number, isWhatsappValid: canonical !== null })
        .where(eq(contactListItems.id, item.id))
        .returning();
      if (row) emitItem(ctx, 'update', { record: toItem(row) });
    }
    await emitListCounts(deps.db, ctx, contactListId);
  }
}

/** The id names a contact list of the company (a campaign's recipients). */
export const assertContactListOf = (db: Db, companyId: number, id: number | null | undefined) =>
  assertOwned(db, contactLists, companyId, [id], 'ERR_NO_CONTACT_LIST_FOUND');

/** A connection of the company came up: lists with items still unchecked get their check now (DOMAIN §12). */
export async function recheckUnchecked(deps: { db: Db; jobs: Jobs }, companyId: number): Promise<void> {
  const lists = await deps.db
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(
      and(
        eq(contactLists.companyId, companyId),
        sql`exists (select 1 from ${contactListItems} i where i.contact_list_id = ${contactLists.id}
          and i.is_whatsapp_valid is null)`,
      ),
    );
  for (const l of lists) await queueCheck(deps.jobs, companyId, l.id);
}
