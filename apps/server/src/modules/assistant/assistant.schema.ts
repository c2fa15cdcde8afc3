import { date, index, integer, pgTable, primaryKey, serial, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';
import { users } from '../users/users.schema.js';

/**
 * The chat-assistant widget's four collections (spec part 1 §3, DOMAIN §19), per company and user.
 * The account: the widget is signed in for one product session (the one that passed its "auth" step).
 */
export const assistantAccounts = pgTable(
  'assistant_accounts',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The product session that signed the widget in; null once it logged out. */
    sessionId: uuid('session_id'),
    signedInAt: timestamp('signed_in_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [index('assistant_accounts_company_idx').on(t.companyId)],
);

/** The daily quota: one row per user and calendar day of the company's time zone. */
export const assistantDailyLimits = pgTable(
  'assistant_daily_limits',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    count: integer('count').notNull().default(0),
    limit: integer('limit').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index('assistant_daily_limits_company_idx').on(t.companyId)],
);

/** The personal provider token, AES-256-GCM encrypted (platform/secrets); never returned. */
export const assistantTokens = pgTable(
  'assistant_tokens',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    token: text('token').notNull(),
    lastUpdated: timestamp('last_updated', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('assistant_tokens_company_idx').on(t.companyId)],
);

/** The chat history: one row per entry, in order of `id`. */
export const assistantHistory = pgTable(
  'assistant_history',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: varchar('role', { length: 20 }).$type<'user' | 'assistant'>().notNull(),
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('assistant_history_user_idx').on(t.companyId, t.userId, t.id)],
);
