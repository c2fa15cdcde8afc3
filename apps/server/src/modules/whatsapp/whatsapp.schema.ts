import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';
import { queues } from '../queues/queues.schema.js';

/** A messaging connection ("whatsapp" in the spec's words) of a company. */
export const whatsapps = pgTable(
  'whatsapps',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 50 }).notNull(),
    provider: varchar('provider', { length: 20 }).notNull().default('beta'),
    status: varchar('status', { length: 20 }).notNull().default('DISCONNECTED'),
    qrcode: text('qrcode').notNull().default(''),
    retries: integer('retries').notNull().default(0),
    isDefault: boolean('is_default').notNull().default(false),
    number: varchar('number', { length: 50 }),
    greetingMessage: text('greeting_message').notNull().default(''),
    complationMessage: text('complation_message').notNull().default(''),
    outOfHoursMessage: text('out_of_hours_message').notNull().default(''),
    ratingMessage: text('rating_message').notNull().default(''),
    expiresInactiveMessage: text('expires_inactive_message').notNull().default(''),
    expiresTicket: integer('expires_ticket').notNull().default(0),
    timeSendQueue: integer('time_send_queue').notNull().default(0),
    sendIdQueue: integer('send_id_queue'),
    timeUseBotQueues: integer('time_use_bot_queues').notNull().default(0),
    maxUseBotQueues: integer('max_use_bot_queues').notNull().default(3),
    queueHolidayMessage: text('queue_holiday_message').notNull().default(''),
    queueHolidayDate: date('queue_holiday_date', { mode: 'string' }),
    queueHolidayEnd: date('queue_holiday_end', { mode: 'string' }),
    promptId: integer('prompt_id'),
    /** The connection-level queue integration (DOMAIN §1.7), for tickets without a queue. */
    integrationId: integer('integration_id'),
    /** SHA-256 of the external API token; the token itself is shown once. */
    tokenHash: varchar('token_hash', { length: 64 }),
    /** Provider settings (Cloud API ids, encrypted secrets). Never returned by the API. */
    providerConfig: jsonb('provider_config').$type<Record<string, unknown>>().notNull().default({}),
    /** Provider session state (sandbox pairing, Baileys creds live in their own table). */
    session: text('session').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('whatsapps_company_name_key').on(t.companyId, t.name),
    uniqueIndex('whatsapps_company_default_key').on(t.companyId).where(sql`${t.isDefault}`),
    uniqueIndex('whatsapps_token_hash_key').on(t.tokenHash),
  ],
);

export const whatsappQueues = pgTable(
  'whatsapp_queues',
  {
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.queueId] }), index('whatsapp_queues_queue_idx').on(t.queueId)],
);
