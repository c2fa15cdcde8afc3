import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';

export const contactLists = pgTable(
  'contact_lists',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 50 }).notNull(),
    /**
     * The list's items, and those WhatsApp confirmed or refused, kept by a statement trigger on
     * `contact_list_items` (migration 0026): the lists page and the campaigns read them instead of
     * counting every item of every list shown.
     */
    contactsCount: integer('contacts_count').notNull().default(0),
    validCount: integer('valid_count').notNull().default(0),
    invalidCount: integer('invalid_count').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('contact_lists_company_name_idx').on(t.companyId, sql`lower(${t.name})`, t.id)],
);

export const contactListItems = pgTable(
  'contact_list_items',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    contactListId: integer('contact_list_id')
      .notNull()
      .references(() => contactLists.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    /** Normalised digits (`normalizeNumber`), replaced by WhatsApp's canonical form once checked. */
    number: varchar('number', { length: 50 }).notNull(),
    email: varchar('email', { length: 255 }).notNull().default(''),
    /** null until the background check asked WhatsApp (DOMAIN §12). */
    isWhatsappValid: boolean('is_whatsapp_valid'),
    /** The file's other columns, for campaign variables. */
    variables: jsonb('variables').$type<Record<string, string>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    // Duplicates within a list are merged on this key.
    uniqueIndex('contact_list_items_list_number_key').on(t.contactListId, t.number),
    index('contact_list_items_list_name_idx').on(t.contactListId, sql`lower(${t.name})`, t.id),
    index('contact_list_items_list_valid_idx').on(t.contactListId, t.isWhatsappValid),
  ],
);
