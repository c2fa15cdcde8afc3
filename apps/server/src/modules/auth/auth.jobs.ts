import { lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Jobs } from '../../platform/jobs/jobs.js';
import { sessions } from '../users/users.schema.js';

export const SESSION_CLEANUP_QUEUE = 'auth.session-cleanup';

/** Expired sessions are kept a day for audit, then removed, so the table stays small. */
export async function deleteExpiredSessions(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - 86_400_000);
  const removed = await db.delete(sessions).where(lt(sessions.expiresAt, cutoff)).returning({ id: sessions.id });
  return removed.length;
}

export function registerSessionCleanup(db: Db, jobs: Jobs): Promise<void> {
  return jobs.schedule(SESSION_CLEANUP_QUEUE, '17 3 * * *', async () => {
    await deleteExpiredSessions(db);
  });
}
