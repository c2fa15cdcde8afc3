import { index, integer, jsonb, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';
import { whatsapps } from '../whatsapp/whatsapp.schema.js';

/**
 * The `Idempotency-Key`s of the external message API (DOMAIN §10), per connection: the first call
 * with a key writes its row in the same transaction as its messages, so a retried or concurrent
 * call with the same key finds the row (waiting for that transaction on the unique index) and
 * answers with the stored reply instead of sending again. Rows older than a day count as gone
 * (a key taken by one is freed when used again, and now and then a sweep deletes them).
 */
export const apiIdempotencyKeys = pgTable(
  'api_idempotency_keys',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    key: varchar('key', { length: 200 }).notNull(),
    /** SHA-256 of what was asked (number, body, files): the same key for another message is refused. */
    fingerprint: varchar('fingerprint', { length: 64 }).notNull(),
    /** The reply given to the first call; null only inside the transaction that writes it. */
    reply: jsonb('reply').$type<Record<string, unknown>>(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('api_idempotency_keys_key').on(t.whatsappId, t.key),
    // The sweep of expired keys.
    index('api_idempotency_keys_created_idx').on(t.createdAt),
  ],
);
