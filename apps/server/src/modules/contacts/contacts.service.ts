import { type Contact, type ContactInput, type CrudAction, companyEvent } from '@balcao/shared';
import { and, asc, count, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { insertMany } from '../../db/insert-many.js';
import { statement } from '../../db/named-statement.js';
import { AppError } from '../../platform/errors/app-error.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { keyOfMediaUrl, type Storage } from '../../platform/storage/storage.js';
import { isAdmin, type ServiceContext } from '../../platform/tenancy/context.js';
import { csvLine, UTF8_BOM } from './contacts.csv.js';
import type { ImportRow } from './contacts.import.js';
import { contactCounts, contactCustomFields, contacts } from './contacts.schema.js';

export const contactColumns = {
  id: contacts.id,
  uuid: contacts.uuid,
  name: contacts.name,
  number: contacts.number,
  email: contacts.email,
  profilePicUrl: contacts.profilePicUrl,
  isGroup: contacts.isGroup,
  createdAt: contacts.createdAt,
  updatedAt: contacts.updatedAt,
};

export function toContact(r: Pick<typeof contacts.$inferSelect, keyof typeof contactColumns>): Contact {
  return { ...r, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() };
}

async function withExtraInfo(db: Db, list: Contact[]): Promise<Contact[]> {
  if (list.length === 0) return list;
  const fields = await db
    .select({
      id: contactCustomFields.id,
      contactId: contactCustomFields.contactId,
      name: contactCustomFields.name,
      value: contactCustomFields.value,
    })
    .from(contactCustomFields)
    .where(
      inArray(
        contactCustomFields.contactId,
        list.map((c) => c.id),
      ),
    )
    .orderBy(asc(contactCustomFields.id));
  return list.map((c) => ({
    ...c,
    extraInfo: fields.filter((f) => f.contactId === c.id).map(({ id, name, value }) => ({ id, name, value })),
  }));
}

export async function findContact(db: Db, companyId: number, id: number): Promise<Contact> {
  const [row] = await db
    .select(contactColumns)
    .from(contacts)
    .where(and(eq(contacts.id, id), eq(contacts.companyId, companyId)))
    .limit(1);
  if (!row) throw new AppError('ERR_NO_CONTACT_FOUND');
  const [contact] = await withExtraInfo(db, [toContact(row)]);
  return contact;
}

const newContacts = statement('new_contacts', ['companyId', 'ids'], (db, p) =>
  db
    .select(contactColumns)
    .from(contacts)
    .where(and(eq(contacts.companyId, p.companyId), sql`${contacts.id} = any(${p.ids})`)),
);

/**
 * Contacts the inbound pipeline created appear live on the contacts page like any other. One read,
 * answered with the announcement: a caller reading more at the same time still announces them first.
 */
export async function newContactsAnnouncement(
  db: Db,
  realtime: Realtime,
  companyId: number,
  ids: number[],
): Promise<() => void> {
  const rows = ids.length ? await newContacts(db, { companyId, ids }) : [];
  return () => {
    for (const row of rows)
      realtime.toCompany(companyId, companyEvent.contact(companyId), {
        action: 'create',
        contact: { ...toContact(row), extraInfo: [] },
      });
  };
}

export async function announceNewContacts(db: Db, realtime: Realtime, companyId: number, ids: number[]) {
  (await newContactsAnnouncement(db, realtime, companyId, ids))();
}

const searchWhere = (companyId: number, term: string) =>
  and(
    eq(contacts.companyId, companyId),
    term
      ? or(sql`lower(${contacts.name}) like ${likePattern(term)}`, sql`${contacts.number} like ${likePattern(term)}`)
      : undefined,
  );

/**
 * The contacts a list counts: a search's matches, counted; all of the company's, summed from
 * `contact_counts`, kept by triggers (counting 100k contacts took 10 ms, on every page).
 */
function countContacts(db: Db, companyId: number, searchParam: string, where: SQL | undefined) {
  if (searchParam) return db.select({ total: count() }).from(contacts).where(where);
  return db
    .select({ total: sql<number>`coalesce(sum(${contactCounts.count}), 0)::int` })
    .from(contactCounts)
    .where(eq(contactCounts.companyId, companyId));
}

export async function listContacts(ctx: ServiceContext, q: { searchParam: string; pageNumber: number }) {
  const { limit, offset, size } = pageWindow(q.pageNumber);
  const where = searchWhere(ctx.companyId, q.searchParam);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select(contactColumns)
      .from(contacts)
      .where(where)
      .orderBy(sql`lower(${contacts.name})`, asc(contacts.id))
      .limit(limit)
      .offset(offset),
    countContacts(ctx.db, ctx.companyId, q.searchParam, where),
  ]);
  const page = pageOf(rows, size);
  return { contacts: page.items.map(toContact), count: total, hasMore: page.hasMore };
}

/** The pickers' list (new-ticket dialog): first 50 matches by name or number. */
export async function searchContacts(ctx: ServiceContext, name = '') {
  const rows = await ctx.db
    .select(contactColumns)
    .from(contacts)
    .where(searchWhere(ctx.companyId, name))
    .orderBy(sql`lower(${contacts.name})`)
    .limit(50);
  return rows.map(toContact);
}

async function replaceExtraInfo(db: Db, contactId: number, extraInfo: ContactInput['extraInfo']) {
  if (!extraInfo) return;
  await db.delete(contactCustomFields).where(eq(contactCustomFields.contactId, contactId));
  if (extraInfo.length) await db.insert(contactCustomFields).values(extraInfo.map((f) => ({ ...f, contactId })));
}

function emitContact(ctx: ServiceContext, action: CrudAction, payload: object) {
  ctx.realtime.toCompany(ctx.companyId, companyEvent.contact(ctx.companyId), { action, ...payload });
}

export async function createContact(ctx: ServiceContext, input: ContactInput): Promise<Contact> {
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contacts)
      .values({ companyId: ctx.companyId, name: input.name, number: input.number, email: input.email })
      .onConflictDoNothing({ target: [contacts.companyId, contacts.number] })
      .returning({ id: contacts.id });
    if (!row) throw new AppError('ERR_DUPLICATED_CONTACT');
    await replaceExtraInfo(tx as unknown as Db, row.id, input.extraInfo);
    return row.id;
  });
  const contact = await findContact(ctx.db, ctx.companyId, id);
  emitContact(ctx, 'create', { contact });
  return contact;
}

export async function updateContact(ctx: ServiceContext, id: number, input: Partial<ContactInput>): Promise<Contact> {
  await findContact(ctx.db, ctx.companyId, id);
  if (input.number) {
    const [other] = await ctx.db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.companyId, ctx.companyId), eq(contacts.number, input.number)))
      .limit(1);
    if (other && other.id !== id) throw new AppError('ERR_DUPLICATED_CONTACT');
  }
  await ctx.db.transaction(async (tx) => {
    const { extraInfo, ...fields } = input;
    if (Object.keys(fields).length) {
      await tx
        .update(contacts)
        .set(fields)
        .where(and(eq(contacts.id, id), eq(contacts.companyId, ctx.companyId)));
    }
    await replaceExtraInfo(tx as unknown as Db, id, extraInfo);
  });
  const contact = await findContact(ctx.db, ctx.companyId, id);
  emitContact(ctx, 'update', { contact });
  return contact;
}

export async function deleteContact(ctx: ServiceContext, id: number, storage: Pick<Storage, 'remove'>): Promise<void> {
  if (!isAdmin(ctx)) throw new AppError('ERR_NO_PERMISSION');
  const contact = await findContact(ctx.db, ctx.companyId, id);
  await ctx.db.delete(contacts).where(and(eq(contacts.id, id), eq(contacts.companyId, ctx.companyId)));
  const picture = keyOfMediaUrl(contact.profilePicUrl);
  if (picture) await storage.remove(picture);
  emitContact(ctx, 'delete', { contactId: id });
}

/**
 * An import's rows (DOMAIN §12): one upsert per chunk on (company, number). A known number takes
 * the file's name and, when given, its e-mail; the file's other columns replace the same-named
 * extraInfo fields.
 */
export async function mergeImportedContacts(db: Db, companyId: number, rows: ImportRow[]): Promise<void> {
  if (rows.length === 0) return;
  const result = (await db.execute(sql`
    insert into ${contacts} (company_id, name, number, email)
    select ${companyId}, t.name, t.number, t.email
    from unnest(${sql.param(rows.map((r) => r.name))}::varchar[], ${sql.param(rows.map((r) => r.number))}::varchar[],
      ${sql.param(rows.map((r) => r.email))}::varchar[]) as t(name, number, email)
    on conflict (company_id, number) do update set
      name = excluded.name,
      email = coalesce(nullif(excluded.email, ''), ${contacts.email}),
      updated_at = now()
    returning id, number`)) as unknown as { rows: { id: number; number: string }[] };
  const idOf = new Map(result.rows.map((r) => [r.number, r.id]));
  const fields = rows.flatMap((r) =>
    Object.entries(r.extra).map(([name, value]) => ({ contactId: idOf.get(r.number) as number, name, value })),
  );
  if (fields.length === 0) return;
  await db.execute(sql`
    delete from ${contactCustomFields} f
    using unnest(${sql.param(fields.map((f) => f.contactId))}::int[], ${sql.param(fields.map((f) => f.name))}::varchar[]) as t(contact_id, name)
    where f.contact_id = t.contact_id and f.name = t.name`);
  await insertMany(db, contactCustomFields, fields);
}

/** The CSV export (DOMAIN §12): UTF-8 with BOM, formula-looking cells escaped, read 1,000 rows at a time. */
export async function* exportContactsCsv(db: Db, companyId: number): AsyncGenerator<string> {
  yield UTF8_BOM + csvLine(['name', 'number', 'email']);
  // Keyset on (lower(name), id): the company's name index serves every page.
  let after: { key: string; id: number } | null = null;
  for (;;) {
    const rows: { id: number; key: string; name: string; number: string; email: string }[] = await db
      .select({
        id: contacts.id,
        key: sql<string>`lower(${contacts.name})`,
        name: contacts.name,
        number: contacts.number,
        email: contacts.email,
      })
      .from(contacts)
      .where(
        and(
          eq(contacts.companyId, companyId),
          after ? sql`(lower(${contacts.name}), ${contacts.id}) > (${after.key}, ${after.id})` : undefined,
        ),
      )
      .orderBy(sql`lower(${contacts.name})`, asc(contacts.id))
      .limit(1000);
    if (rows.length === 0) return;
    yield rows.map((r) => csvLine([r.name, r.number, r.email])).join('');
    const last = rows[rows.length - 1];
    after = { key: last.key, id: last.id };
  }
}
