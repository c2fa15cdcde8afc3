import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';
import { contactLists } from '../contact-lists/contact-lists.schema.js';
import { fileLists } from '../files/files.schema.js';
import { tags } from '../tags/tags.schema.js';
import { whatsapps } from '../whatsapp/whatsapp.schema.js';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const campaigns = pgTable(
  'campaigns',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 50 }).notNull(),
    /** INATIVA | PROGRAMADA | EM_ANDAMENTO | CANCELADA | FINALIZADA (spec part 2 §8). */
    status: varchar('status', { length: 20 }).notNull().default('INATIVA'),
    confirmation: boolean('confirmation').notNull().default(false),
    message1: text('message1'),
    message2: text('message2'),
    message3: text('message3'),
    message4: text('message4'),
    message5: text('message5'),
    confirmationMessage1: text('confirmation_message1'),
    confirmationMessage2: text('confirmation_message2'),
    confirmationMessage3: text('confirmation_message3'),
    confirmationMessage4: text('confirmation_message4'),
    confirmationMessage5: text('confirmation_message5'),
    scheduledAt: at('scheduled_at'),
    startedAt: at('started_at'),
    completedAt: at('completed_at'),
    /** The recipients were written once, when the campaign first started. */
    preparedAt: at('prepared_at'),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    contactListId: integer('contact_list_id').references(() => contactLists.id, { onDelete: 'set null' }),
    tagListId: integer('tag_list_id').references(() => tags.id, { onDelete: 'set null' }),
    fileListId: integer('file_list_id').references(() => fileLists.id, { onDelete: 'set null' }),
    mediaKey: varchar('media_key', { length: 255 }),
    mediaName: varchar('media_name', { length: 255 }),
    mediaMime: varchar('media_mime', { length: 120 }),
    templateName: varchar('template_name', { length: 512 }),
    templateLanguage: varchar('template_language', { length: 15 }),
    templateVariables: jsonb('template_variables').$type<string[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [
    index('campaigns_company_idx').on(t.companyId, t.id),
    // The starter's scan of due campaigns.
    index('campaigns_scheduled_idx').on(t.scheduledAt).where(sql`${t.status} = 'PROGRAMADA'`),
    index('campaigns_running_idx').on(t.whatsappId).where(sql`${t.status} = 'EM_ANDAMENTO'`),
  ],
);

/** One recipient of a campaign (DOMAIN §8): its own state machine, claimed before each send. */
export const campaignShippings = pgTable(
  'campaign_shippings',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    /** Normalised digits: one row per number. */
    number: varchar('number', { length: 50 }).notNull(),
    name: varchar('name', { length: 100 }).notNull().default(''),
    email: varchar('email', { length: 255 }).notNull().default(''),
    /** The list file's other columns, for `{variables}`. */
    variables: jsonb('variables').$type<Record<string, string>>().notNull().default({}),
    status: varchar('status', { length: 12 }).notNull().default('pending'),
    /** Skip reason or error code. */
    reason: varchar('reason', { length: 60 }),
    attempts: smallint('attempts').notNull().default(0),
    messageIndex: smallint('message_index'),
    providerId: varchar('provider_id', { length: 128 }),
    confirmationProviderId: varchar('confirmation_provider_id', { length: 128 }),
    confirmationRequestedAt: at('confirmation_requested_at'),
    confirmation: boolean('confirmation').notNull().default(false),
    claimedAt: at('claimed_at'),
    sentAt: at('sent_at'),
    deliveredAt: at('delivered_at'),
    readAt: at('read_at'),
    repliedAt: at('replied_at'),
    /** A transient failure: not before this instant again. */
    retryAt: at('retry_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('campaign_shippings_campaign_number_key').on(t.campaignId, t.number),
    // The claim (next pending row of a campaign), the report's filter and the counts.
    index('campaign_shippings_campaign_status_idx').on(t.campaignId, t.status, t.id),
    // Acks by provider id.
    index('campaign_shippings_provider_idx').on(t.providerId).where(sql`${t.providerId} is not null`),
    // A reply from a number: confirmations and replies attributed to a campaign.
    index('campaign_shippings_company_number_idx')
      .on(t.companyId, t.number)
      .where(sql`${t.status} in ('confirming', 'sent', 'delivered', 'read')`),
  ],
);

/** Spec part 2 §3 "Campaign settings": key/value records per company, value as JSON text. */
export const campaignSettings = pgTable(
  'campaign_settings',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    key: varchar('key', { length: 40 }).notNull(),
    value: text('value').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('campaign_settings_company_key').on(t.companyId, t.key)],
);

/** Numbers that answered an opt-out word (DOMAIN §8): skipped by every future campaign of the company. */
export const optOuts = pgTable(
  'opt_outs',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    number: varchar('number', { length: 50 }).notNull(),
    word: varchar('word', { length: 20 }).notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.number] })],
);

/**
 * The pace of one connection's campaign sends: when the next may leave and how many have left, so
 * the long pause comes every N sends whichever campaign they belong to, and a duplicated loop job
 * cannot send early.
 */
export const campaignPacing = pgTable('campaign_pacing', {
  whatsappId: integer('whatsapp_id')
    .primaryKey()
    .references(() => whatsapps.id, { onDelete: 'cascade' }),
  nextAt: at('next_at').notNull().defaultNow(),
  sentCount: integer('sent_count').notNull().default(0),
});
