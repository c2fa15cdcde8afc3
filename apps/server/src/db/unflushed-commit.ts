import { sql } from 'drizzle-orm';

/**
 * A condition that is always true and lets the transaction it runs in commit without waiting for
 * its WAL to reach the disk (`synchronous_commit = off` for that transaction only). For writes that
 * are cheap to lose and cost a user a wait: a database crash may forget the last fraction of a
 * second of them (never corrupting anything), and nothing else is delayed or weakened. PostgreSQL
 * evaluates it once, before the statement's scan (it reads no column: a one-time filter). Put it in
 * a statement that is its own transaction: inside a longer one it would cover every write of it.
 */
export const commitUnflushed = sql`(select set_config('synchronous_commit', 'off', true)) = 'off'`;
