import { pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.js';

/** Help videos (spec part 2 §3 "Help"): one list for the whole platform, kept by the super user. */
export const helps = pgTable('helps', {
  id: serial('id').primaryKey(),
  title: varchar('title', { length: 100 }).notNull(),
  description: text('description').notNull().default(''),
  /** The validated YouTube video id, never a URL (DOMAIN §15). */
  video: varchar('video', { length: 11 }).notNull(),
  ...timestamps,
});
