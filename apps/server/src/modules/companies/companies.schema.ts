import type { WeeklyScheduleEntry } from '@balcao/shared';
import { boolean, date, integer, jsonb, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { plans } from '../plans/plans.schema.js';

export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 50 }).notNull(),
    email: varchar('email', { length: 255 }),
    phone: varchar('phone', { length: 30 }),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id),
    status: boolean('status').notNull().default(true),
    dueDate: date('due_date', { mode: 'string' }),
    recurrence: varchar('recurrence', { length: 20 }).notNull().default('MENSAL'),
    trialExpiration: date('trial_expiration', { mode: 'string' }),
    /** Billing fields (spec part 2 §3), saved by the checkout. */
    billingName: varchar('billing_name', { length: 200 }),
    addressZipCode: varchar('address_zip_code', { length: 20 }),
    addressStreet: varchar('address_street', { length: 200 }),
    addressState: varchar('address_state', { length: 100 }),
    addressCity: varchar('address_city', { length: 100 }),
    addressDistrict: varchar('address_district', { length: 100 }),
    schedules: jsonb('schedules').$type<WeeklyScheduleEntry[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [uniqueIndex('companies_name_key').on(t.name)],
);
