import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';

export const contacts = pgTable(
  'contacts',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    /** Digits only (country + area + number), or a group id for group contacts. */
    number: varchar('number', { length: 50 }).notNull(),
    email: varchar('email', { length: 255 }).notNull().default(''),
    profilePicUrl: varchar('profile_pic_url', { length: 1000 }).notNull().default(''),
    isGroup: boolean('is_group').notNull().default(false),
    /** Provider identity (e.g. a WhatsApp LID) merged on this contact. */
    lid: varchar('lid', { length: 80 }),
    /** Name and picture are refreshed from the provider at most once a day (DOMAIN §1.4). */
    profileRefreshedAt: timestamp('profile_refreshed_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('contacts_company_number_key').on(t.companyId, t.number),
    uniqueIndex('contacts_uuid_key').on(t.uuid),
    index('contacts_company_lid_idx').on(t.companyId, t.lid),
    index('contacts_company_name_idx').on(t.companyId, sql`lower(${t.name})`, t.id),
    index('contacts_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    index('contacts_number_trgm_idx').using('gin', sql`${t.number} gin_trgm_ops`),
  ],
);

export const contactCustomFields = pgTable(
  'contact_custom_fields',
  {
    id: serial('id').primaryKey(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    value: varchar('value', { length: 1000 }).notNull().default(''),
    ...timestamps,
  },
  (t) => [index('contact_custom_fields_contact_idx').on(t.contactId)],
);

/** A file import (contacts or a contact list's upload) run by a background job (DOMAIN §12). */
export const contactImports = pgTable(
  'contact_imports',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The uploader: the only one who hears its progress. */
    userId: integer('user_id').notNull(),
    /** null: the company's contacts; otherwise that list's items. */
    contactListId: integer('contact_list_id'),
    fileKey: varchar('file_key', { length: 200 }).notNull(),
    fileName: varchar('file_name', { length: 255 }).notNull(),
    status: varchar('status', { length: 10 })
      .$type<'pending' | 'running' | 'done' | 'failed'>()
      .notNull()
      .default('pending'),
    total: integer('total').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    imported: integer('imported').notNull().default(0),
    rejected: integer('rejected').notNull().default(0),
    rejectedKey: varchar('rejected_key', { length: 200 }),
    error: varchar('error', { length: 100 }),
    ...timestamps,
  },
  (t) => [index('contact_imports_company_idx').on(t.companyId, t.id)],
);

/**
 * How many contacts each company has, kept by triggers (migration 0025) as `ticket_counts` keeps
 * the tickets': the contacts list sums a company's few rows instead of counting its contacts
 * (10 ms per page for 100k contacts). A company may hold several rows, one per concurrent writer.
 */
export const contactCounts = pgTable(
  'contact_counts',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    count: integer('count').notNull(),
  },
  (t) => [index('contact_counts_company_idx').on(t.companyId)],
);
