import { lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { endSessions, sessionsWhere } from '../../platform/auth/sessions.js';
import type { Jobs } from '../../platform/jobs/jobs.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { companyRefuses } from '../../platform/tenancy/company-access.js';
import { sessions } from '../users/users.schema.js';

export const SESSION_CLEANUP_QUEUE = 'auth.session-cleanup';
export const REFUSED_SESSIONS_QUEUE = 'auth.refused-sessions';

/** Expired sessions are kept a day for audit, then removed, so the table stays small. */
export async function deleteExpiredSessions(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - 86_400_000);
  const removed = await db.delete(sessions).where(lt(sessions.expiresAt, cutoff)).returning({ id: sessions.id });
  return removed.length;
}

/**
 * Ends the sessions, and closes the sockets, of companies that may no longer log in: a due date
 * passes with no request to notice it (requests and handshakes are refused already, open sockets
 * are not). Returns the ended session ids.
 */
export function endRefusedSessions(deps: { db: Db; realtime: Realtime }, now = new Date()): Promise<string[]> {
  return endSessions(deps, sessionsWhere.membersOf(deps.db, companyRefuses(now)));
}

export async function registerSessionJobs(deps: { db: Db; realtime: Realtime }, jobs: Jobs): Promise<void> {
  await jobs.schedule(SESSION_CLEANUP_QUEUE, '17 3 * * *', async () => {
    await deleteExpiredSessions(deps.db);
  });
  // Every five minutes: a socket of an overdue company stops receiving shortly after midnight UTC.
  await jobs.schedule(REFUSED_SESSIONS_QUEUE, '*/5 * * * *', async () => {
    await endRefusedSessions(deps);
  });
}
