import type { MessageMediaType } from '@balcao/shared';
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';
import { contacts } from '../contacts/contacts.schema.js';
import { tickets } from '../tickets/tickets.schema.js';

export type MediaType = MessageMediaType;

export const messages = pgTable(
  'messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    whatsappId: integer('whatsapp_id').notNull(),
    /** The provider's message id; unique per company and connection, never globally (DOMAIN §1.2). */
    providerId: varchar('provider_id', { length: 128 }),
    body: text('body').notNull().default(''),
    fromMe: boolean('from_me').notNull().default(false),
    mediaType: varchar('media_type', { length: 20 }).$type<MediaType>().notNull().default('chat'),
    /** Storage key of the file (server-generated), never a client path. */
    mediaKey: varchar('media_key', { length: 255 }),
    mediaName: varchar('media_name', { length: 255 }),
    mediaMime: varchar('media_mime', { length: 120 }),
    quotedMsgId: integer('quoted_msg_id'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    isEdited: boolean('is_edited').notNull().default(false),
    ack: integer('ack').notNull().default(0),
    read: boolean('read').notNull().default(false),
    /** Sender inside a group conversation. */
    participant: varchar('participant', { length: 120 }),
    /** Sent by the server itself (automations), not by a person. */
    isAutomatic: boolean('is_automatic').notNull().default(false),
    userId: integer('user_id'),
    /**
     * Outbound state (the row is its own outbox, messages.outbox.ts): pending until a sender claims
     * it (`sending`), `sent` once the provider accepted it, `failed` after bounded retries.
     */
    sendStatus: varchar('send_status', { length: 10 })
      .$type<'pending' | 'sending' | 'sent' | 'failed' | 'received'>()
      .notNull()
      .default('received'),
    /** Send attempts so far; each claim counts one. */
    sendAttempts: integer('send_attempts').notNull().default(0),
    /** A pending message is not claimed before this time (retry backoff). */
    nextSendAt: timestamp('next_send_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Why the last attempt failed (an ERR_* code), shown on the message; cleared once sent. */
    sendError: varchar('send_error', { length: 40 }),
    /** When the current `sending` claim was taken; an old claim is a send interrupted by a crash. */
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }),
    data: jsonb('data').$type<Record<string, unknown>>(),
    /** What a voice note says, transcribed for the AI assistant (DOMAIN §16) and shown to agents. */
    transcript: text('transcript'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('messages_provider_key')
      .on(t.companyId, t.whatsappId, t.providerId)
      .where(sql`${t.providerId} is not null`),
    index('messages_ticket_created_idx').on(t.ticketId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The outbox: only unsent messages, so the sweeper and the per-ticket claim read a small index.
    index('messages_outbox_idx')
      .on(t.ticketId, t.id)
      .where(sql`${t.sendStatus} in ('pending', 'sending') and ${t.isDeleted} = false`),
    // Failed sends of a connection: sent again when it comes back.
    index('messages_failed_idx').on(t.whatsappId, t.id).where(sql`${t.sendStatus} = 'failed'`),
    index('messages_body_trgm_idx').using('gin', sql`lower(${t.body}) gin_trgm_ops`),
  ],
);
