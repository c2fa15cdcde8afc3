import {
  bigint,
  doublePrecision,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';
import { queues } from '../queues/queues.schema.js';
import { tickets } from '../tickets/tickets.schema.js';

/** The company's AI prompts (spec part 2 §3, DOMAIN §16). */
export const prompts = pgTable(
  'prompts',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    prompt: text('prompt').notNull(),
    /** The OpenAI key, AES-256-GCM encrypted (platform/secrets); never returned. */
    apiKey: text('api_key').notNull(),
    voice: varchar('voice', { length: 100 }).notNull().default('texto'),
    /** The voice service's key, encrypted like `apiKey`; '' when none. */
    voiceKey: text('voice_key').notNull().default(''),
    voiceRegion: varchar('voice_region', { length: 100 }).notNull().default(''),
    maxTokens: integer('max_tokens').notNull().default(100),
    temperature: doublePrecision('temperature').notNull().default(1),
    maxMessages: integer('max_messages').notNull().default(10),
    model: varchar('model', { length: 100 }).notNull().default('gpt-4o-mini'),
    /** The queue a contact is handed to when the assistant hands off to a human. */
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('prompts_company_idx').on(t.companyId, t.name)],
);

/**
 * The assistant's state on a ticket, for one service cycle: where the cycle's conversation starts,
 * what was answered, whether it handed off, and the lease of the turn in progress (one at a time).
 */
export const promptSessions = pgTable(
  'prompt_sessions',
  {
    ticketId: integer('ticket_id')
      .primaryKey()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The ticket's tracking record (service cycle) this state belongs to; 0 when it has none. */
    cycleId: integer('cycle_id').notNull().default(0),
    /** The first message of the cycle the assistant reads. */
    sinceMessageId: bigint('since_message_id', { mode: 'number' }).notNull(),
    /** The newest contact message already answered. */
    answeredUpTo: bigint('answered_up_to', { mode: 'number' }).notNull().default(0),
    handedOffAt: timestamp('handed_off_at', { withTimezone: true, mode: 'date' }),
    handoffReason: varchar('handoff_reason', { length: 500 }),
    /** A turn in progress holds the ticket until then (a crashed turn's lease runs out). */
    busyUntil: timestamp('busy_until', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [index('prompt_sessions_company_idx').on(t.companyId)],
);
