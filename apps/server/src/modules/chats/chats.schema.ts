import { index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { companies } from '../companies/companies.schema.js';
import { users } from '../users/users.schema.js';

/** Internal chat (DOMAIN §14): a conversation between users of one company. */
export const chats = pgTable(
  'chats',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom(),
    title: varchar('title', { length: 255 }).notNull(),
    /** Only the owner renames, changes members or deletes; a deleted owner leaves the chat ownerless. */
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    lastMessage: text('last_message').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('chats_uuid_idx').on(t.uuid),
    // The list: a member's chats by last activity.
    index('chats_company_updated_idx').on(t.companyId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/** A member and their unread counter: rows are added or removed, never recreated (that resets counters). */
export const chatUsers = pgTable(
  'chat_users',
  {
    id: serial('id').primaryKey(),
    chatId: integer('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    unreads: integer('unreads').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('chat_users_chat_user_idx').on(t.chatId, t.userId),
    // A user's chats (the list, the top bar's popover).
    index('chat_users_user_idx').on(t.userId, t.chatId),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    chatId: integer('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  // Pages of 20 from the newest: a backward scan of (chat_id, id).
  (t) => [index('chat_messages_chat_id_idx').on(t.chatId, t.id)],
);
