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
    schedules: jsonb('schedules').$type<WeeklyScheduleEntry[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [uniqueIndex('companies_name_key').on(t.name)],
);
