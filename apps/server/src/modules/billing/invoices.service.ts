import type { Invoice, InvoicesPage } from '@balcao/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { companies } from '../companies/companies.schema.js';
import { plans } from '../plans/plans.schema.js';
import { settings } from '../settings/settings.schema.js';
import { invoices } from './billing.schema.js';

/** An invoice is issued this many days before its due date, in the company's time zone. */
export const ISSUE_DAYS_AHEAD = 10;

type Row = typeof invoices.$inferSelect;

export const toInvoice = (r: Row): Invoice => ({
  id: r.id,
  companyId: r.companyId,
  detail: r.detail,
  value: r.value,
  dueDate: r.dueDate,
  status: r.status,
  paidAt: r.paidAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

/**
 * DOMAIN §18, in one statement per run for every company (or one): each active company whose due date
 * is within `ISSUE_DAYS_AHEAD` days of its own today gets one open invoice for that date, valued from its
 * plan; the unique (company, due date) makes a second run, or a concurrent one, issue nothing more. An open
 * invoice whose plan's value changed is re-issued at the new value, its charge dropped (it would no longer
 * pay it). Returns how many invoices were issued.
 */
export async function issueInvoices(db: Db, companyId?: number): Promise<number> {
  const only = companyId === undefined ? sql`` : sql`and c.id = ${companyId}`;
  const issued = await db.execute<{ id: number }>(sql`
    insert into ${invoices} (company_id, due_date, value, detail)
    select c.id, c.due_date, p.value, p.name
    from ${companies} c
    join ${plans} p on p.id = c.plan_id
    left join ${settings} tz on tz.company_id = c.id and tz.key = 'timezone'
    where c.status and c.due_date is not null and p.value > 0 ${only}
      and c.due_date <= (now() at time zone coalesce(tz.value, 'America/Sao_Paulo'))::date + ${ISSUE_DAYS_AHEAD}::int
    on conflict (company_id, due_date) do nothing
    returning id`);
  await db.execute(sql`
    update ${invoices} i
    set value = p.value, detail = p.name, txid = null, provider = null, charge_id = null, copy_paste = null,
        charge_amount = null, charge_expires_at = null, updated_at = now()
    from ${companies} c join ${plans} p on p.id = c.plan_id
    where i.company_id = c.id and i.status = 'open' and i.value <> p.value ${only}`);
  return rowsOf(issued).length;
}

/** node-postgres answers `{rows}`, PGlite an array-like result with `rows` too. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows?: T[] }).rows ?? [];

/**
 * `GET /invoices/all` (spec part 2 §7): the caller's company's invoices, newest due date first, after
 * issuing the current one if it is due (so a new company sees its invoice at once); the super user sees
 * every company's. `searchParam` matches the detail, the value or the id.
 */
export async function listInvoices(
  ctx: ServiceContext,
  q: { searchParam?: string; pageNumber?: number },
): Promise<InvoicesPage> {
  if (!ctx.isSuper) await issueInvoices(ctx.db, ctx.companyId);
  const { limit, offset, size } = pageWindow(q.pageNumber ?? 1);
  const term = q.searchParam?.trim();
  const rows = await ctx.db
    .select()
    .from(invoices)
    .where(
      and(
        ctx.isSuper ? undefined : eq(invoices.companyId, ctx.companyId),
        term
          ? sql`(lower(${invoices.detail}) like ${likePattern(term)} or ${invoices.value}::text like ${likePattern(term)}
                or ${invoices.id}::text = ${term})`
          : undefined,
      ),
    )
    .orderBy(desc(invoices.dueDate), desc(invoices.id))
    .limit(limit)
    .offset(offset);
  const page = pageOf(rows, size);
  return { invoices: page.items.map(toInvoice), hasMore: page.hasMore };
}
