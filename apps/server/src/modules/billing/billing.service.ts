import { randomBytes } from 'node:crypto';
import {
  companyEvent,
  type PaymentEvent,
  RECURRENCE_MONTHS,
  type Recurrence,
  type SubscriptionInput,
  type SubscriptionReply,
} from '@balcao/shared';
import { and, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { forgetCallers } from '../../platform/tenancy/callers.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { companies } from '../companies/companies.schema.js';
import { invoices, paymentEvents } from './billing.schema.js';
import { type PaymentProvider, PaymentProviderError, type WebhookNotice } from './providers/provider.js';

type InvoiceRow = typeof invoices.$inferSelect;

/** How long a Pix code stays payable; a checkout after that gets a new one. */
const CHARGE_TTL_MS = 24 * 3_600_000;
/** A charge this close to its expiry is not handed out again. */
const CHARGE_MARGIN_MS = 5 * 60_000;

/** A Pix txid: 26 to 35 letters and digits (BACEN). */
const newTxid = () => `BLC${randomBytes(16).toString('hex')}`.slice(0, 35);

const live = (r: InvoiceRow, now: Date) =>
  r.txid !== null &&
  r.chargeAmount === r.value &&
  (r.chargeExpiresAt === null || r.chargeExpiresAt.getTime() - CHARGE_MARGIN_MS > now.getTime());

function replyOf(r: InvoiceRow, provider: PaymentProvider): SubscriptionReply {
  const code = r.copyPaste ?? '';
  return {
    qrcode: { qrcode: code },
    copyPaste: code,
    valor: { original: r.value.toFixed(2) },
    txid: r.txid ?? '',
    expiresAt: r.chargeExpiresAt?.toISOString() ?? '',
    sandbox: provider.name === 'sandbox',
  };
}

/**
 * `POST /subscription` (DOMAIN §18): the Pix charge of one of the caller's company's unpaid invoices, for
 * the invoice's value whatever the browser sent. A live charge is reused; otherwise a new txid is written on
 * the invoice first and the charge created under it (the provider's idempotency key), so concurrent checkouts
 * end up with one charge. The billing fields of the company are saved; card fields never are.
 */
export async function subscribe(
  ctx: ServiceContext,
  provider: PaymentProvider,
  input: SubscriptionInput,
): Promise<SubscriptionReply> {
  const now = new Date();
  const picked = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, input.invoiceId), eq(invoices.companyId, ctx.companyId)))
      .for('update');
    if (!row) throw new AppError('ERR_NO_INVOICE_FOUND');
    if (row.status === 'paid') throw new AppError('ERR_INVOICE_PAID');
    await tx
      .update(companies)
      .set({
        billingName: `${input.firstName} ${input.lastName}`.trim(),
        addressStreet: input.address2,
        addressCity: input.city,
        addressState: input.state,
        addressZipCode: input.zipcode,
      })
      .where(eq(companies.id, ctx.companyId));
    if (live(row, now)) return row;
    const [claimed] = await tx
      .update(invoices)
      .set({
        txid: newTxid(),
        provider: provider.name,
        chargeId: null,
        copyPaste: null,
        chargeAmount: row.value,
        chargeExpiresAt: new Date(now.getTime() + CHARGE_TTL_MS),
        updatedAt: now,
      })
      .where(eq(invoices.id, row.id))
      .returning();
    return claimed;
  });
  if (picked.chargeId && picked.copyPaste) return replyOf(picked, provider);

  const [company] = await ctx.db
    .select({ email: companies.email, name: companies.name, billingName: companies.billingName })
    .from(companies)
    .where(eq(companies.id, ctx.companyId));
  let charge: Awaited<ReturnType<PaymentProvider['createCharge']>>;
  try {
    charge = await provider.createCharge({
      txid: picked.txid as string,
      amount: picked.value,
      description: `Fatura ${picked.id} - ${picked.detail}`.slice(0, 200),
      payer: { email: company?.email ?? '', name: company?.billingName || company?.name || '' },
      expiresAt: picked.chargeExpiresAt ?? new Date(now.getTime() + CHARGE_TTL_MS),
    });
  } catch (err) {
    if (err instanceof PaymentProviderError) throw new AppError('ERR_PAYMENT_PROVIDER', {}, err.message);
    throw err;
  }
  const [stored] = await ctx.db
    .update(invoices)
    .set({ chargeId: charge.chargeId, copyPaste: charge.copyPaste, chargeExpiresAt: charge.expiresAt })
    .where(and(eq(invoices.id, picked.id), eq(invoices.txid, picked.txid as string)))
    .returning();
  return replyOf(stored ?? { ...picked, chargeId: charge.chargeId, copyPaste: charge.copyPaste }, provider);
}

export interface SettleDeps {
  db: Db;
  realtime: Realtime;
  log: Pick<Logger, 'info' | 'warn'>;
}

export type SettleOutcome = 'settled' | 'duplicate' | 'already-paid' | 'not-paid' | 'underpaid' | 'unknown-charge';

/** `yyyy-mm-dd` plus months, clamped to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(isoDate: string, months: number): string {
  const [y, m, d] = isoDate.split('-').map(Number);
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return target.toISOString().slice(0, 10);
}

/**
 * Settles the invoice of an authenticated notice, exactly once (DOMAIN §18): the charge is confirmed with
 * the provider's API, never read from the notice; then, in one transaction, the event id is recorded (a
 * replay finds it and does nothing), the invoice locked, and — when unpaid and paid in full — marked paid and
 * the company's due date moved to max(today, due date) + its recurrence's months. The company hears
 * `payment` CONCLUIDA with the new date.
 */
export async function settle(
  deps: SettleDeps,
  provider: PaymentProvider,
  notice: WebhookNotice,
): Promise<SettleOutcome> {
  const state = await provider.getCharge(notice.chargeId);
  const result = await deps.db.transaction(async (tx) => {
    const [invoice] = await tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.provider, provider.name), eq(invoices.chargeId, notice.chargeId)))
      .for('update');
    const outcome = (): SettleOutcome => {
      if (!invoice || (state.txid !== null && state.txid !== invoice.txid)) return 'unknown-charge';
      if (invoice.status === 'paid') return 'already-paid';
      if (state.status !== 'paid') return 'not-paid';
      if ((state.paidAmount ?? 0) + 0.005 < invoice.value) return 'underpaid';
      return 'settled';
    };
    const decided = outcome();
    const [recorded] = await tx
      .insert(paymentEvents)
      .values({ provider: provider.name, eventId: notice.eventId, invoiceId: invoice?.id ?? null, outcome: decided })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (!recorded) return { outcome: 'duplicate' as const, settled: null };
    if (decided !== 'settled' || !invoice) return { outcome: decided, settled: null };
    await tx
      .update(invoices)
      .set({ status: 'paid', paidAt: new Date(), updatedAt: new Date() })
      .where(eq(invoices.id, invoice.id));
    const [company] = await tx
      .select({ dueDate: companies.dueDate, recurrence: companies.recurrence })
      .from(companies)
      .where(eq(companies.id, invoice.companyId))
      .for('update');
    const today = new Date().toISOString().slice(0, 10);
    const from = company?.dueDate && company.dueDate > today ? company.dueDate : today;
    const months = RECURRENCE_MONTHS[(company?.recurrence ?? 'MENSAL') as Recurrence] ?? 1;
    const dueDate = addMonths(from, months);
    await tx.update(companies).set({ dueDate }).where(eq(companies.id, invoice.companyId));
    return { outcome: decided, settled: { companyId: invoice.companyId, invoiceId: invoice.id, dueDate } };
  });
  if (result.settled) {
    const { companyId, invoiceId, dueDate } = result.settled;
    forgetCallers(deps.db, { company: companyId });
    const event: PaymentEvent = { action: 'CONCLUIDA', company: { id: companyId, dueDate }, invoiceId };
    deps.realtime.toCompany(companyId, companyEvent.payment(companyId), event);
  }
  deps.log.info({ chargeId: notice.chargeId, eventId: notice.eventId, outcome: result.outcome }, 'payment notice');
  return result.outcome;
}

/**
 * For lost webhooks (DOMAIN §18): every open invoice with a charge that may still be paid is checked with
 * the provider; a paid one settles through the same path, under an event id of its own.
 */
export async function reconcile(deps: SettleDeps, provider: PaymentProvider): Promise<number> {
  const open = await deps.db
    .select({ chargeId: invoices.chargeId })
    .from(invoices)
    .where(
      and(
        eq(invoices.status, 'open'),
        eq(invoices.provider, provider.name),
        isNotNull(invoices.chargeId),
        gt(invoices.chargeExpiresAt, sql`now() - interval '1 day'`),
      ),
    )
    .limit(500);
  let settled = 0;
  for (const { chargeId } of open) {
    if (!chargeId) continue;
    try {
      const outcome = await settle(deps, provider, { chargeId, eventId: `reconcile:${chargeId}:${Date.now()}` });
      if (outcome === 'settled') settled++;
    } catch (err) {
      deps.log.warn({ err, chargeId }, 'reconciliation could not check a charge');
    }
  }
  return settled;
}

/** The invoice of a sandbox txid, for the pay button: the caller's company's, or any for the super user. */
export async function invoiceOfTxid(ctx: ServiceContext, txid: string): Promise<InvoiceRow> {
  const [row] = await ctx.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.txid, txid), ctx.isSuper ? undefined : eq(invoices.companyId, ctx.companyId)));
  if (!row?.chargeId) throw new AppError('ERR_NO_INVOICE_FOUND');
  return row;
}
