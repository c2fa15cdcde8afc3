import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';
import { tickets } from '../tickets/tickets.schema.js';

/** The company's queue integrations (spec part 2 §3, DOMAIN §17). */
export const queueIntegrations = pgTable(
  'queue_integrations',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    type: varchar('type', { length: 20 }).$type<'typebot' | 'n8n' | 'webhook' | 'dialogflow'>().notNull(),
    name: varchar('name', { length: 50 }).notNull(),
    projectName: varchar('project_name', { length: 100 }).notNull().default(''),
    /** Dialogflow's service-account JSON, AES-256-GCM encrypted (platform/secrets); '' for the other types. */
    jsonContent: text('json_content').notNull().default(''),
    /** The service account's e-mail, what the API shows of the credentials. */
    jsonContentClientEmail: varchar('json_content_client_email', { length: 255 }).notNull().default(''),
    language: varchar('language', { length: 10 }).notNull().default('pt-BR'),
    urlN8N: varchar('url_n8n', { length: 500 }).notNull().default(''),
    typebotDelayMessage: integer('typebot_delay_message').notNull().default(1000),
    /** Hours a bot session lives without activity; 0 = never expires. */
    typebotExpires: integer('typebot_expires').notNull().default(1),
    typebotKeywordFinish: varchar('typebot_keyword_finish', { length: 50 }).notNull().default(''),
    typebotKeywordRestart: varchar('typebot_keyword_restart', { length: 50 }).notNull().default(''),
    typebotRestartMessage: text('typebot_restart_message').notNull().default(''),
    typebotSlug: varchar('typebot_slug', { length: 200 }).notNull().default(''),
    typebotUnknownMessage: text('typebot_unknown_message').notNull().default(''),
    /** n8n / webhook: the HMAC key of the deliveries' signature, encrypted like `jsonContent`. */
    signingSecret: text('signing_secret').notNull().default(''),
    ...timestamps,
  },
  (t) => [index('queue_integrations_company_idx').on(t.companyId, t.name)],
);

/**
 * A bot's conversation on a ticket (DOMAIN §17): one row per (ticket, integration). `processedUpTo` is
 * the newest contact message already given to the bot, so a retried job never feeds one twice; `busyUntil`
 * is the lease of the turn in progress (one at a time per ticket).
 */
export const integrationSessions = pgTable(
  'integration_sessions',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => queueIntegrations.id, { onDelete: 'cascade' }),
    /** The ticket's service cycle (tracking record) the session belongs to: a new cycle starts the bot anew. */
    cycleId: integer('cycle_id').notNull().default(0),
    status: varchar('status', { length: 10 }).$type<'active' | 'paused' | 'closed'>().notNull().default('active'),
    externalSessionId: varchar('external_session_id', { length: 200 }),
    /** Typebot: the labels of the choice input the bot waits on, so a number answers it. */
    pendingChoices: text('pending_choices').array().notNull().default(sql`'{}'::text[]`),
    processedUpTo: bigint('processed_up_to', { mode: 'number' }).notNull().default(0),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Null: never expires (`typebotExpires` 0). */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    busyUntil: timestamp('busy_until', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('integration_sessions_ticket_integration_key').on(t.ticketId, t.integrationId),
    index('integration_sessions_expiry_idx').on(t.expiresAt).where(sql`${t.status} = 'active'`),
    index('integration_sessions_company_idx').on(t.companyId),
  ],
);
