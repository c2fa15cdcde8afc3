import { and, eq, inArray, isNull, ne, not, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { companies } from '../../modules/companies/companies.schema.js';
import { sessions, users } from '../../modules/users/users.schema.js';
import type { Realtime } from '../realtime/realtime.js';
import { forgetCallers } from '../tenancy/callers.js';

/** Which live sessions to end. */
export const sessionsWhere = {
  id: (sessionId: string) => eq(sessions.id, sessionId),
  /** Every session of the user, or every other one than `keep` (the caller's own). */
  user: (userId: number, keep?: string) =>
    and(eq(sessions.userId, userId), keep ? ne(sessions.id, keep) : undefined) as SQL,
  /** Sessions of the non-super members of the companies matching every filter (super users are never locked out). */
  membersOf: (db: Db, ...company: [SQL, ...SQL[]]) =>
    inArray(
      sessions.userId,
      db
        .select({ id: users.id })
        .from(users)
        .innerJoin(companies, eq(companies.id, users.companyId))
        .where(and(not(users.super), ...company)),
    ),
};

/**
 * Revokes the live sessions matching `where` (access and refresh tokens die with the row) and
 * disconnects their sockets on every instance. Returns the ended session ids.
 */
export async function endSessions(deps: { db: Db; realtime: Realtime }, where: SQL): Promise<string[]> {
  const ended = await deps.db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(isNull(sessions.revokedAt), where))
    .returning({ id: sessions.id });
  const ids = ended.map((s) => s.id);
  forgetCallers(deps.db, { sessions: ids });
  deps.realtime.disconnectSessions(ids);
  return ids;
}
