import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';

const money = (name: string) => numeric(name, { precision: 10, scale: 2, mode: 'number' });

/**
 * One invoice per company and period (DOMAIN §18), its value fixed from the plan when issued. The Pix
 * charge of the invoice lives on the row: our `txid`, the provider's charge and its copy-and-paste code.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    detail: varchar('detail', { length: 200 }).notNull().default(''),
    value: money('value').notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    status: varchar('status', { length: 10 }).$type<'open' | 'paid'>().notNull().default('open'),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
    /** Our transaction id of the live charge: the provider's idempotency key and external reference. */
    txid: varchar('txid', { length: 35 }),
    provider: varchar('provider', { length: 20 }),
    chargeId: varchar('charge_id', { length: 100 }),
    copyPaste: text('copy_paste'),
    chargeAmount: money('charge_amount'),
    chargeExpiresAt: timestamp('charge_expires_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('invoices_company_due_key').on(t.companyId, t.dueDate),
    uniqueIndex('invoices_txid_key').on(t.txid),
    uniqueIndex('invoices_charge_key').on(t.provider, t.chargeId),
    index('invoices_company_idx').on(t.companyId, t.dueDate.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The reconciliation reads open invoices with a charge.
    index('invoices_open_charge_idx')
      .on(t.chargeExpiresAt)
      .where(sql`${t.status} = 'open' and ${t.chargeId} is not null`),
  ],
);

/** Every webhook event (or reconciliation) that settled or tried to: a provider's event is handled once. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: serial('id').primaryKey(),
    provider: varchar('provider', { length: 20 }).notNull(),
    eventId: varchar('event_id', { length: 200 }).notNull(),
    invoiceId: integer('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    outcome: varchar('outcome', { length: 20 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payment_events_provider_event_key').on(t.provider, t.eventId)],
);

/** The sandbox provider's own records: what a real provider keeps on its side. */
export const sandboxCharges = pgTable('sandbox_charges', {
  chargeId: varchar('charge_id', { length: 100 }).primaryKey(),
  txid: varchar('txid', { length: 35 }).notNull().unique(),
  amount: money('amount').notNull(),
  copyPaste: text('copy_paste').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  paidAmount: money('paid_amount'),
  paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
