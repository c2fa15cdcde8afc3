import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';
import { users } from '../users/users.schema.js';

/** A file list (spec part 2 "Files"): a message and the files sent after it. */
export const fileLists = pgTable(
  'file_lists',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: varchar('name', { length: 255 }).notNull(),
    message: text('message').notNull(),
    ...timestamps,
  },
  // The list is searched and ordered by lower(name) within a company.
  (t) => [index('file_lists_company_name_idx').on(t.companyId, sql`lower(${t.name})`, t.id)],
);

/** One file of a list, under a server key; the uploaded file's name is metadata only (DOMAIN §15). */
export const fileListOptions = pgTable(
  'file_list_options',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    fileListId: integer('file_list_id')
      .notNull()
      .references(() => fileLists.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 255 }).notNull(),
    /** The order of the dialog's rows, which is the order the files are sent in. */
    position: integer('position').notNull().default(0),
    mediaKey: varchar('media_key', { length: 255 }),
    mediaType: varchar('media_type', { length: 120 }),
    fileName: varchar('file_name', { length: 255 }),
    ...timestamps,
  },
  (t) => [index('file_list_options_list_idx').on(t.fileListId, t.position)],
);
