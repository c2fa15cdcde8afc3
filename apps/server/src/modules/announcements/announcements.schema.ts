import { boolean, index, integer, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';

/**
 * Platform-wide notices: the super user publishes, every signed-in user of every company reads the
 * active ones (DOMAIN §15; the spec's event `company-announcement` names no company). Hence no
 * `company_id`: the file's storage key carries the publisher's company, as every key does.
 */
export const announcements = pgTable(
  'announcements',
  {
    id: serial('id').primaryKey(),
    title: varchar('title', { length: 255 }).notNull(),
    text: text('text').notNull(),
    /** 1 high, 2 medium, 3 low. */
    priority: integer('priority').notNull().default(3),
    status: boolean('status').notNull().default(true),
    mediaKey: varchar('media_key', { length: 255 }),
    mediaName: varchar('media_name', { length: 255 }),
    ...timestamps,
  },
  // The top bar pages the active ones from the newest: a backward scan of (status, id).
  (t) => [index('announcements_status_id_idx').on(t.status, t.id)],
);
