import {
  CAMPAIGN_EDIT_LEAD_MS,
  type Campaign,
  type CampaignCounts,
  type CampaignEvent,
  type CampaignStatus,
  campaignConfirmationKeys,
  campaignMessageKeys,
  companyEvent,
} from '@balcao/shared';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { fileKindOf } from '../../platform/storage/file-kinds.js';
import type { Storage } from '../../platform/storage/storage.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { instantOf } from '../../platform/wall-clock.js';
import { contactLists } from '../contact-lists/contact-lists.schema.js';
import { assertContactListOf } from '../contact-lists/contact-lists.service.js';
import { assertFileListOf } from '../files/files.service.js';
import { mediaUrlOf } from '../messages/messages.view.js';
import { getSetting } from '../settings/settings.service.js';
import { assertTagOf } from '../tags/tags.service.js';
import { whatsapps } from '../whatsapp/whatsapp.schema.js';
import { assertWhatsappOfCompany } from '../whatsapp/whatsapp.service.js';
import { campaignShippings, campaigns } from './campaigns.schema.js';

type Row = typeof campaigns.$inferSelect;

/** The form's fields after the shared schema (nulls for blanks). */
export interface CampaignFields {
  name: string;
  confirmation: boolean;
  contactListId: number | null;
  whatsappId: number | null;
  scheduledAt: string | null;
  tagListId: number | null;
  fileListId: number | null;
  message1: string | null;
  message2: string | null;
  message3: string | null;
  message4: string | null;
  message5: string | null;
  confirmationMessage1: string | null;
  confirmationMessage2: string | null;
  confirmationMessage3: string | null;
  confirmationMessage4: string | null;
  confirmationMessage5: string | null;
  templateName: string | null;
  templateLanguage: string | null;
  templateVariables: string[];
}

const emptyCounts = (): CampaignCounts => ({
  total: 0,
  pending: 0,
  sending: 0,
  confirming: 0,
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  skipped: 0,
  optedOut: 0,
  confirmationRequested: 0,
  confirmed: 0,
  validContacts: 0,
});

/**
 * Per-recipient counts of several campaigns in one grouped read. Before it is prepared, a
 * campaign's valid contacts are its list's items not refused by WhatsApp (the list's kept counts).
 */
async function countsOf(db: Db, rows: Joined[]): Promise<Map<number, CampaignCounts>> {
  const out = new Map(
    rows.map(({ c, l }) => [c.id, { ...emptyCounts(), validContacts: l ? l.contactsCount - l.invalidCount : 0 }]),
  );
  if (rows.length === 0) return out;
  const byStatus = await db
    .select({
      campaignId: campaignShippings.campaignId,
      status: campaignShippings.status,
      n: count(),
      optedOut: sql<number>`count(*) filter (where ${campaignShippings.reason} = 'opted_out')`.mapWith(Number),
      requested: count(campaignShippings.confirmationRequestedAt),
      confirmed: sql<number>`count(*) filter (where ${campaignShippings.confirmation})`.mapWith(Number),
    })
    .from(campaignShippings)
    .where(
      inArray(
        campaignShippings.campaignId,
        rows.map((r) => r.c.id),
      ),
    )
    .groupBy(campaignShippings.campaignId, campaignShippings.status);
  for (const g of byStatus) {
    const c = out.get(g.campaignId) as CampaignCounts;
    c.total += g.n;
    if (g.status in c) (c as unknown as Record<string, number>)[g.status] += g.n;
    c.optedOut += g.optedOut;
    c.confirmationRequested += g.requested;
    c.confirmed += g.confirmed;
  }
  // Once prepared, the valid contacts are the campaign's own recipients (the list may have changed since).
  for (const { c: r } of rows) {
    const c = out.get(r.id) as CampaignCounts;
    if (r.preparedAt) c.validContacts = c.total - (c.skipped - c.optedOut);
  }
  return out;
}

const joined = (db: Db) =>
  db
    .select({
      c: campaigns,
      w: { id: whatsapps.id, name: whatsapps.name, provider: whatsapps.provider, status: whatsapps.status },
      l: {
        id: contactLists.id,
        name: contactLists.name,
        contactsCount: contactLists.contactsCount,
        invalidCount: contactLists.invalidCount,
      },
    })
    .from(campaigns)
    .leftJoin(whatsapps, eq(whatsapps.id, campaigns.whatsappId))
    .leftJoin(contactLists, eq(contactLists.id, campaigns.contactListId));
type Joined = Awaited<ReturnType<ReturnType<typeof joined>['where']>>[number];

async function toCampaigns(db: Db, rows: Joined[]): Promise<Campaign[]> {
  const counts = await countsOf(db, rows);
  return rows.map(({ c, w, l }) => ({
    id: c.id,
    name: c.name,
    status: c.status as CampaignStatus,
    confirmation: c.confirmation,
    message1: c.message1,
    message2: c.message2,
    message3: c.message3,
    message4: c.message4,
    message5: c.message5,
    confirmationMessage1: c.confirmationMessage1,
    confirmationMessage2: c.confirmationMessage2,
    confirmationMessage3: c.confirmationMessage3,
    confirmationMessage4: c.confirmationMessage4,
    confirmationMessage5: c.confirmationMessage5,
    scheduledAt: c.scheduledAt?.toISOString() ?? null,
    completedAt: c.completedAt?.toISOString() ?? null,
    startedAt: c.startedAt?.toISOString() ?? null,
    whatsappId: c.whatsappId,
    whatsapp: w,
    contactListId: c.contactListId,
    contactList: l ? { id: l.id, name: l.name, contactsCount: l.contactsCount } : null,
    tagListId: c.tagListId,
    fileListId: c.fileListId,
    companyId: c.companyId,
    mediaPath: mediaUrlOf(c.mediaKey),
    mediaName: c.mediaName,
    templateName: c.templateName,
    templateLanguage: c.templateLanguage,
    templateVariables: c.templateVariables,
    counts: counts.get(c.id) ?? emptyCounts(),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  }));
}

export async function viewCampaign(db: Db, id: number): Promise<Campaign | undefined> {
  const rows = await joined(db).where(eq(campaigns.id, id));
  return (await toCampaigns(db, rows))[0];
}

/** Everyone of the company follows campaigns (the module is the plan's, not a role's). */
export function emitCampaign(realtime: Realtime, companyId: number, payload: CampaignEvent) {
  realtime.toCompany(companyId, companyEvent.campaign(companyId), payload);
}

export async function announceCampaign(db: Db, realtime: Realtime, id: number, action: 'create' | 'update' = 'update') {
  const record = await viewCampaign(db, id);
  if (record) emitCampaign(realtime, record.companyId, { action, record, id });
  return record;
}

export async function listCampaigns(ctx: ServiceContext, q: { searchParam: string; pageNumber: number }) {
  const { limit, offset, size } = pageWindow(q.pageNumber);
  const where = and(
    eq(campaigns.companyId, ctx.companyId),
    q.searchParam ? sql`lower(${campaigns.name}) like ${likePattern(q.searchParam)}` : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    joined(ctx.db).where(where).orderBy(desc(campaigns.id)).limit(limit).offset(offset),
    ctx.db.select({ total: count() }).from(campaigns).where(where),
  ]);
  const page = pageOf(rows, size);
  return { records: await toCampaigns(ctx.db, page.items), count: total, hasMore: page.hasMore };
}

export async function campaignRow(db: Db, companyId: number, id: number): Promise<Row> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, id), eq(campaigns.companyId, companyId)));
  if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
  return row;
}

export async function findCampaign(ctx: ServiceContext, id: number): Promise<Campaign> {
  await campaignRow(ctx.db, ctx.companyId, id);
  return (await viewCampaign(ctx.db, id)) as Campaign;
}

/** Every reference names a record of the caller's company. */
async function assertReferences(ctx: ServiceContext, f: Partial<CampaignFields>) {
  // One after the other: a body naming several foreign records always gets the same answer.
  await assertWhatsappOfCompany(ctx.db, ctx.companyId, f.whatsappId);
  await assertContactListOf(ctx.db, ctx.companyId, f.contactListId);
  await assertTagOf(ctx.db, ctx.companyId, f.tagListId);
  await assertFileListOf(ctx.db, ctx.companyId, f.fileListId);
}

async function scheduledInstant(ctx: ServiceContext, value: string | null): Promise<Date | null> {
  if (value === null) return null;
  const at = instantOf(value, await getSetting(ctx.db, ctx.companyId, 'timezone'));
  if (Number.isNaN(at.getTime())) throw new AppError('ERR_VALIDATION', {}, 'Data inválida');
  return at;
}

const messageKeys: readonly string[] = [...campaignMessageKeys, ...campaignConfirmationKeys];

/**
 * Spec part 2 §8: editable while INATIVA or PROGRAMADA more than an hour ahead; a CANCELADA one only
 * in its messages (other fields may come back unchanged, as the dialog sends the whole form).
 */
function assertEditable(row: Row, input: Partial<CampaignFields>, scheduledAt: Date | null | undefined, now: Date) {
  if (row.status === 'INATIVA') return;
  if (
    row.status === 'PROGRAMADA' &&
    row.scheduledAt &&
    row.scheduledAt.getTime() - now.getTime() > CAMPAIGN_EDIT_LEAD_MS
  )
    return;
  if (row.status !== 'CANCELADA') throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || messageKeys.includes(key)) continue;
    const same =
      key === 'scheduledAt'
        ? (scheduledAt?.getTime() ?? null) === (row.scheduledAt?.getTime() ?? null)
        : JSON.stringify(value) === JSON.stringify(row[key as keyof Row]);
    if (!same) throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
  }
}

export async function createCampaign(ctx: ServiceContext, input: CampaignFields): Promise<Campaign> {
  await assertReferences(ctx, input);
  const scheduledAt = await scheduledInstant(ctx, input.scheduledAt);
  const [row] = await ctx.db
    .insert(campaigns)
    .values({
      ...input,
      companyId: ctx.companyId,
      scheduledAt,
      status: scheduledAt ? 'PROGRAMADA' : 'INATIVA',
    })
    .returning({ id: campaigns.id });
  return (await announceCampaign(ctx.db, ctx.realtime, row.id, 'create')) as Campaign;
}

export async function updateCampaign(
  ctx: ServiceContext,
  id: number,
  input: Partial<CampaignFields>,
  now = new Date(),
): Promise<Campaign> {
  const row = await campaignRow(ctx.db, ctx.companyId, id);
  const scheduledAt = input.scheduledAt !== undefined ? await scheduledInstant(ctx, input.scheduledAt) : undefined;
  assertEditable(row, input, scheduledAt, now);
  await assertReferences(ctx, input);
  const { scheduledAt: _given, ...fields } = input;
  const status = row.status === 'CANCELADA' ? row.status : (scheduledAt ?? row.scheduledAt) ? 'PROGRAMADA' : 'INATIVA';
  // The status checked above must still hold: a starter may have flipped it meanwhile.
  const [updated] = await ctx.db
    .update(campaigns)
    .set({ ...fields, ...(scheduledAt !== undefined ? { scheduledAt } : {}), status })
    .where(and(eq(campaigns.id, id), eq(campaigns.status, row.status)))
    .returning({ id: campaigns.id });
  if (!updated) throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
  return (await announceCampaign(ctx.db, ctx.realtime, id)) as Campaign;
}

/** A file shared by no other campaign is removed with its last reference. */
async function removeMediaIfUnused(db: Db, storage: Storage, key: string | null) {
  if (!key) return;
  const [used] = await db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.mediaKey, key)).limit(1);
  if (!used) await storage.remove(key);
}

export async function deleteCampaign(ctx: ServiceContext, storage: Storage, id: number): Promise<void> {
  const row = await campaignRow(ctx.db, ctx.companyId, id);
  // The recipients go with it (cascade); a loop that claimed one finds the campaign gone and stops.
  await ctx.db.delete(campaigns).where(eq(campaigns.id, id));
  await removeMediaIfUnused(ctx.db, storage, row.mediaKey);
  emitCampaign(ctx.realtime, ctx.companyId, { action: 'delete', id });
}

/** The campaign's own attachment, checked by its bytes like file lists' (DOMAIN §15), or null to remove it. */
export async function setCampaignMedia(
  ctx: ServiceContext,
  storage: Storage,
  id: number,
  file: { data: Buffer; fileName: string } | null,
  now = new Date(),
): Promise<Campaign> {
  const row = await campaignRow(ctx.db, ctx.companyId, id);
  assertEditable(row, {}, undefined, now);
  const kind = file ? fileKindOf(file.data, file.fileName) : null;
  if (file && !kind) throw new AppError('ERR_INVALID_FILE_TYPE', {}, `${file.fileName} is not an accepted file type`);
  // The key's extension is the detected type's: the client's name travels as metadata only.
  const stored = file && kind ? await storage.put(ctx.companyId, file.data, `file${kind.ext}`) : null;
  await ctx.db
    .update(campaigns)
    .set({ mediaKey: stored?.key ?? null, mediaName: file?.fileName ?? null, mediaMime: kind?.mime ?? null })
    .where(eq(campaigns.id, id));
  await removeMediaIfUnused(ctx.db, storage, row.mediaKey);
  return (await announceCampaign(ctx.db, ctx.realtime, id)) as Campaign;
}
