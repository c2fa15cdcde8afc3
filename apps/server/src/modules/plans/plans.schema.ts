import { boolean, integer, numeric, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';

export const plans = pgTable(
  'plans',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 50 }).notNull(),
    users: integer('users').notNull(),
    connections: integer('connections').notNull(),
    queues: integer('queues').notNull(),
    value: numeric('value', { precision: 10, scale: 2, mode: 'number' }).notNull().default(0),
    useCampaigns: boolean('use_campaigns').notNull().default(true),
    useSchedules: boolean('use_schedules').notNull().default(true),
    useInternalChat: boolean('use_internal_chat').notNull().default(true),
    useExternalApi: boolean('use_external_api').notNull().default(true),
    useKanban: boolean('use_kanban').notNull().default(true),
    useOpenAi: boolean('use_open_ai').notNull().default(true),
    useIntegrations: boolean('use_integrations').notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex('plans_name_key').on(t.name)],
);
