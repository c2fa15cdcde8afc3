import type { WeeklyScheduleEntry } from '@balcao/shared';
import { index, integer, jsonb, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';

export const queues = pgTable(
  'queues',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 50 }).notNull(),
    color: varchar('color', { length: 9 }).notNull(),
    greetingMessage: text('greeting_message').notNull().default(''),
    outOfHoursMessage: text('out_of_hours_message').notNull().default(''),
    orderQueue: integer('order_queue'),
    schedules: jsonb('schedules').$type<WeeklyScheduleEntry[]>().notNull().default([]),
    integrationId: integer('integration_id'),
    promptId: integer('prompt_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('queues_company_name_key').on(t.companyId, t.name),
    uniqueIndex('queues_company_color_key').on(t.companyId, t.color),
    index('queues_company_order_idx').on(t.companyId, t.orderQueue),
  ],
);
