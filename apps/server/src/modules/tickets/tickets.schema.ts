import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';
import { contacts } from '../contacts/contacts.schema.js';
import { queues } from '../queues/queues.schema.js';
import { users } from '../users/users.schema.js';
import { whatsapps } from '../whatsapp/whatsapp.schema.js';

export const tickets = pgTable(
  'tickets',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    status: varchar('status', { length: 10 }).$type<'pending' | 'open' | 'closed'>().notNull().default('pending'),
    lastMessage: text('last_message').notNull().default(''),
    unreadMessages: integer('unread_messages').notNull().default(0),
    isGroup: boolean('is_group').notNull().default(false),
    chatbot: boolean('chatbot').notNull().default(false),
    useIntegration: boolean('use_integration').notNull().default(false),
    integrationId: integer('integration_id'),
    promptId: integer('prompt_id'),
    /**
     * The kanban lane (a kanban tag of the ticket; null: "Em aberto"), kept by the tag writes
     * (tags.service refreshLanes): lanes are read and counted on this column's index instead of
     * comparing every active ticket with every kanban tag row.
     */
    laneTagId: integer('lane_tag_id'),
    queueOptionId: integer('queue_option_id'),
    /** How many times the queue menu was sent in the current bot window (DOMAIN §2). */
    amountUsedBotQueues: integer('amount_used_bot_queues').notNull().default(0),
    /** Set while the ticket waits for the contact's 1–5 answer after "resolve" (DOMAIN §4). */
    awaitingRating: boolean('awaiting_rating').notNull().default(false),
    /** Out-of-hours notice already sent for the current closed period. */
    outOfHoursNotifiedAt: timestamp('out_of_hours_notified_at', { withTimezone: true, mode: 'date' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastFromMe: boolean('last_from_me').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tickets_uuid_key').on(t.uuid),
    // Exactly one non-closed ticket per contact and connection: concurrent inbound messages cannot duplicate it.
    uniqueIndex('tickets_one_open_key').on(t.companyId, t.contactId, t.whatsappId).where(sql`${t.status} <> 'closed'`),
    index('tickets_company_status_updated_idx').on(
      t.companyId,
      t.status,
      t.updatedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('tickets_company_queue_status_updated_idx').on(
      t.companyId,
      t.queueId,
      t.status,
      t.updatedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('tickets_company_user_status_idx').on(t.companyId, t.userId, t.status, t.updatedAt.desc().nullsFirst()),
    // The kanban board (open and pending tickets, both statuses in one order): a lane's page walks it
    // newest first and stops after a page; the queue and assignee let a plain user's visibility be
    // checked, and a lane counted, on the index alone.
    index('tickets_company_active_updated_idx')
      .on(t.companyId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst(), t.queueId, t.userId)
      .where(sql`${t.status} in ('open', 'pending')`),
    // A kanban lane's page and count (open and pending tickets of one lane, "Em aberto" as null).
    index('tickets_company_lane_idx')
      .on(t.companyId, t.laneTagId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst(), t.queueId, t.userId)
      .where(sql`${t.status} in ('open', 'pending')`),
    index('tickets_contact_idx').on(t.contactId, t.updatedAt.desc().nullsFirst()),
    index('tickets_expiry_idx').on(t.whatsappId, t.status, t.lastMessageAt).where(sql`${t.status} = 'open'`),
    // The dashboard's chart of the tickets created today.
    index('tickets_company_created_idx').on(t.companyId, t.createdAt),
  ],
);

/**
 * How many of a company's tickets share a status, queue, assignee and kanban lane, kept by migration 0024's
 * triggers in the transaction that writes the tickets: a list's count sums a few of these rows
 * instead of walking every matching ticket. A key may have several rows (see the migration): only
 * their sum means anything.
 */
export const ticketCounts = pgTable(
  'ticket_counts',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    status: varchar('status', { length: 10 }).notNull(),
    queueId: integer('queue_id'),
    userId: integer('user_id'),
    laneTagId: integer('lane_tag_id'),
    count: integer('count').notNull(),
  },
  (t) => [
    index('ticket_counts_key_idx').on(
      t.companyId,
      t.status,
      sql`coalesce(${t.queueId}, 0)`,
      sql`coalesce(${t.userId}, 0)`,
      sql`coalesce(${t.laneTagId}, 0)`,
    ),
  ],
);

/** One record per service cycle of a ticket (DOMAIN §4), read by the dashboard. */
export const ticketTraking = pgTable(
  'ticket_trakings',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    whatsappId: integer('whatsapp_id'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    queuedAt: timestamp('queued_at', { withTimezone: true, mode: 'date' }),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    ratingAt: timestamp('rating_at', { withTimezone: true, mode: 'date' }),
    rated: boolean('rated').notNull().default(false),
    /** The first message an agent wrote in the cycle (web or phone; automatic messages do not count). */
    firstReplyAt: timestamp('first_reply_at', { withTimezone: true, mode: 'date' }),
    /** The last transfer to another queue or user within the cycle, and how many there were. */
    transferredAt: timestamp('transferred_at', { withTimezone: true, mode: 'date' }),
    transfers: integer('transfers').notNull().default(0),
    /** Accepted − queued in whole seconds, written with the acceptance: the dashboard averages stored numbers. */
    waitSeconds: integer('wait_seconds'),
    /** First agent message − queued, in whole seconds. */
    firstReplySeconds: integer('first_reply_seconds'),
    /** Closed − accepted, in whole seconds; none for a cycle closed before anyone accepted it. */
    supportSeconds: integer('support_seconds'),
    /** The cycle that opened its contact's first ticket ever: a lead (DOMAIN §9). */
    lead: boolean('lead').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('ticket_trakings_ticket_idx').on(t.ticketId, t.id.desc().nullsFirst()),
    // One range per dashboard metric, on the event time it is filtered by (DOMAIN §9), holding the
    // duration it averages: the dashboard reads the indexes only.
    index('ticket_trakings_company_finished_idx').on(t.companyId, t.finishedAt, t.userId, t.supportSeconds),
    index('ticket_trakings_company_started_idx').on(t.companyId, t.startedAt, t.waitSeconds),
    index('ticket_trakings_company_first_reply_idx').on(t.companyId, t.firstReplyAt, t.firstReplySeconds),
    index('ticket_trakings_company_lead_idx').on(t.companyId, t.queuedAt).where(sql`${t.lead}`),
  ],
);

export const userRatings = pgTable(
  'user_ratings',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    rate: integer('rate').notNull(),
    ...timestamps,
  },
  (t) => [
    index('user_ratings_company_user_idx').on(t.companyId, t.userId),
    index('user_ratings_company_created_idx').on(t.companyId, t.createdAt),
  ],
);
