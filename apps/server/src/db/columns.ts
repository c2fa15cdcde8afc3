import type { Column } from 'drizzle-orm';
import { timestamp } from 'drizzle-orm/pg-core';

/** createdAt/updatedAt pair every table carries. */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/** The row type of a `select({...columns})` object, nullability included. */
export type RowOf<T extends Record<string, Column>> = {
  [K in keyof T]: T[K]['_']['notNull'] extends true ? T[K]['_']['data'] : T[K]['_']['data'] | null;
};
