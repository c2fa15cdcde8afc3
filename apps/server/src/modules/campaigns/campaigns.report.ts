import type { Shipping, ShippingStatus } from '@balcao/shared';
import { and, asc, count, eq, gt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { csvLine, UTF8_BOM } from '../contacts/contacts.csv.js';
import { campaignShippings } from './campaigns.schema.js';
import { campaignRow } from './campaigns.service.js';

type Row = typeof campaignShippings.$inferSelect;
const iso = (d: Date | null) => d?.toISOString() ?? null;

export const toShipping = (r: Row): Shipping => ({
  id: r.id,
  campaignId: r.campaignId,
  number: r.number,
  name: r.name,
  email: r.email,
  status: r.status as ShippingStatus,
  reason: r.reason,
  attempts: r.attempts,
  messageIndex: r.messageIndex,
  confirmationRequestedAt: iso(r.confirmationRequestedAt),
  confirmation: r.confirmation,
  sentAt: iso(r.sentAt),
  deliveredAt: iso(r.deliveredAt),
  readAt: iso(r.readAt),
  repliedAt: iso(r.repliedAt),
  updatedAt: r.updatedAt.toISOString(),
});

/** The report's state filter: a status, or the opted-out among the skipped. */
const stateFilter = (status: string): SQL | undefined =>
  status === 'all'
    ? undefined
    : status === 'opted_out'
      ? and(eq(campaignShippings.status, 'skipped'), eq(campaignShippings.reason, 'opted_out'))
      : eq(campaignShippings.status, status);

/** GET /campaigns/:id/shipping: the recipients in the order they were prepared, filtered by state. */
export async function listShippings(
  ctx: ServiceContext,
  campaignId: number,
  q: { status: string; searchParam: string; pageNumber: number },
) {
  await campaignRow(ctx.db, ctx.companyId, campaignId);
  const { limit, offset, size } = pageWindow(q.pageNumber);
  const term = likePattern(q.searchParam);
  const where = and(
    eq(campaignShippings.campaignId, campaignId),
    stateFilter(q.status),
    q.searchParam
      ? or(sql`lower(${campaignShippings.name}) like ${term}`, sql`${campaignShippings.number} like ${term}`)
      : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(campaignShippings).where(where).orderBy(asc(campaignShippings.id)).limit(limit).offset(offset),
    ctx.db.select({ total: count() }).from(campaignShippings).where(where),
  ]);
  const page = pageOf(rows, size);
  return { records: page.items.map(toShipping), count: total, hasMore: page.hasMore };
}

/** The whole report as CSV, streamed by keyset pages (a 50,000-recipient campaign never sits in memory). */
export async function* exportShippingsCsv(db: Db, campaignId: number): AsyncGenerator<string> {
  yield UTF8_BOM +
    csvLine(['name', 'number', 'email', 'status', 'reason', 'message', 'sentAt', 'deliveredAt', 'readAt', 'repliedAt']);
  let after = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(campaignShippings)
      .where(and(eq(campaignShippings.campaignId, campaignId), gt(campaignShippings.id, after)))
      .orderBy(asc(campaignShippings.id))
      .limit(1000);
    if (rows.length === 0) return;
    yield rows
      .map((r) =>
        csvLine([
          r.name,
          r.number,
          r.email,
          r.status,
          r.reason ?? '',
          r.messageIndex ? String(r.messageIndex) : '',
          iso(r.sentAt) ?? '',
          iso(r.deliveredAt) ?? '',
          iso(r.readAt) ?? '',
          iso(r.repliedAt) ?? '',
        ]),
      )
      .join('');
    after = rows[rows.length - 1].id;
  }
}
