import { index, integer, pgTable, primaryKey, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { whatsapps } from '../../modules/whatsapp/whatsapp.schema.js';

/**
 * The Baileys auth state of a connection: its creds (type `creds`, key id '') and every signal
 * key, one row each, as BufferJSON text; also the jids of contacts known only by their LID
 * (type `reply-jid`). Logging out or deleting the connection removes it all.
 */
export const baileysAuth = pgTable(
  'baileys_auth',
  {
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    type: varchar('type', { length: 40 }).notNull(),
    keyId: varchar('key_id', { length: 255 }).notNull(),
    value: text('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.type, t.keyId] })],
);

/**
 * The content of messages this server sent, kept a short while so Baileys' `getMessage` can
 * re-encrypt them when a recipient's device asks for a retry. Pruned by age on every send.
 */
export const baileysSent = pgTable(
  'baileys_sent',
  {
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    providerId: varchar('provider_id', { length: 128 }).notNull(),
    /** The `proto.IMessage` as BufferJSON text. */
    data: text('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.providerId] }),
    index('baileys_sent_created_idx').on(t.whatsappId, t.createdAt),
  ],
);
