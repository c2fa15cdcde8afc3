import { type AnyPgColumn, index, integer, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';
import { queues } from '../queues/queues.schema.js';

/** A node of a queue's chatbot options tree (DOMAIN §2). */
export const queueOptions = pgTable(
  'queue_options',
  {
    id: serial('id').primaryKey(),
    queueId: integer('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnyPgColumn => queueOptions.id, { onDelete: 'cascade' }),
    title: varchar('title', { length: 100 }).notNull(),
    message: text('message').notNull().default(''),
    /** 1-based position among its siblings, renumbered on delete. */
    option: integer('option').notNull(),
    ...timestamps,
  },
  (t) => [index('queue_options_parent_idx').on(t.queueId, t.parentId, t.option)],
);
