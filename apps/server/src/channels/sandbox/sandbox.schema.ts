import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { whatsapps } from '../../modules/whatsapp/whatsapp.schema.js';

/** What the simulated contacts' phones have received from a sandbox connection. */
export const sandboxOutbox = pgTable(
  'sandbox_outbox',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    number: varchar('number', { length: 50 }).notNull(),
    providerId: varchar('provider_id', { length: 128 }).notNull(),
    body: text('body').notNull().default(''),
    media: jsonb('media').$type<{ fileName: string; mimetype: string; url: string } | null>(),
    quotedProviderId: varchar('quoted_provider_id', { length: 128 }),
    ack: integer('ack').notNull().default(1),
    /** Times this message id was sent: the phone shows it once, tests check nothing was sent twice. */
    sends: integer('sends').notNull().default(1),
    deleted: boolean('deleted').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('sandbox_outbox_number_idx').on(t.whatsappId, t.number, t.id),
    uniqueIndex('sandbox_outbox_provider_key').on(t.whatsappId, t.providerId),
  ],
);
