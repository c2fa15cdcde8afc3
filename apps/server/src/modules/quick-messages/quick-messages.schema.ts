import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';
import { users } from '../users/users.schema.js';

export const quickMessages = pgTable(
  'quick_messages',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    shortcode: varchar('shortcode', { length: 100 }).notNull(),
    message: text('message').notNull(),
    /** Shared with the whole company ("geral") or private to its author. */
    geral: boolean('geral').notNull().default(true),
    mediaKey: varchar('media_key', { length: 255 }),
    mediaName: varchar('media_name', { length: 255 }),
    mediaMime: varchar('media_mime', { length: 120 }),
    ...timestamps,
  },
  (t) => [index('quick_messages_company_shortcode_idx').on(t.companyId, sql`lower(${t.shortcode})`)],
);
