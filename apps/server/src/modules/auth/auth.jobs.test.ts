import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, SUPER } from '../../../test/harness.js';
import type { Database } from '../../db/client.js';
import { ensurePlatform } from '../../db/seed.js';
import type { JobHandler, Jobs } from '../../platform/jobs/jobs.js';
import { createRealtime } from '../../platform/realtime/realtime.js';
import { sessions, users } from '../users/users.schema.js';
import {
  deleteExpiredSessions,
  REFUSED_SESSIONS_QUEUE,
  registerSessionJobs,
  SESSION_CLEANUP_QUEUE,
} from './auth.jobs.js';

const HOUR = 3_600_000;
const now = new Date('2030-06-15T12:00:00Z');
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);

let database: Database;
let userId: number;
let companyId: number;
beforeAll(async () => {
  database = await openTestDatabase();
  await ensurePlatform(database.db, SUPER);
  [{ id: userId, companyId }] = await database.db.select({ id: users.id, companyId: users.companyId }).from(users);
});
afterAll(() => database.close());

/** Inserts sessions by name and returns their ids. */
async function seed(rows: Record<string, { expiresAt: Date; revokedAt?: Date }>) {
  await database.db.delete(sessions);
  const ids: Record<string, string> = {};
  for (const [name, row] of Object.entries(rows)) {
    ids[name] = randomUUID();
    await database.db.insert(sessions).values({ id: ids[name], userId, companyId, ...row });
  }
  return ids;
}
const remaining = async () => (await database.db.select({ id: sessions.id }).from(sessions)).map((s) => s.id).sort();

describe('deleteExpiredSessions', () => {
  it('removes sessions expired over a day ago and keeps the others', async () => {
    const ids = await seed({
      longGone: { expiresAt: at(-30 * 24 * HOUR) },
      expired25h: { expiresAt: at(-25 * HOUR) },
      expired23h: { expiresAt: at(-23 * HOUR) },
      expiredJustNow: { expiresAt: at(-1000) },
      live: { expiresAt: at(7 * 24 * HOUR) },
      revokedButNotExpired: { expiresAt: at(24 * HOUR), revokedAt: at(-HOUR) },
    });
    expect(await deleteExpiredSessions(database.db, now)).toBe(2);
    expect(await remaining()).toEqual([ids.expired23h, ids.expiredJustNow, ids.live, ids.revokedButNotExpired].sort());
    // Idempotent: nothing more to remove at the same time.
    expect(await deleteExpiredSessions(database.db, now)).toBe(0);
  });

  it('uses the current time by default', async () => {
    const ids = await seed({
      old: { expiresAt: new Date(Date.now() - 2 * 24 * HOUR) },
      live: { expiresAt: new Date(Date.now() + HOUR) },
    });
    expect(await deleteExpiredSessions(database.db)).toBe(1);
    expect(await remaining()).toEqual([ids.live]);
  });
});

describe('registerSessionJobs', () => {
  it('schedules a daily job that runs the cleanup and a frequent one that ends refused sessions', async () => {
    const scheduled: { queue: string; cron: string; handler: JobHandler<object> }[] = [];
    const jobs: Jobs = {
      send: async () => null,
      work: async () => {},
      schedule: async (queue, cron, handler) => {
        scheduled.push({ queue, cron, handler });
      },
      stop: async () => {},
    };
    const realtime = createRealtime({ corsOrigin: [], log: pino({ level: 'silent' }) });
    await registerSessionJobs({ db: database.db, realtime }, jobs);
    expect(scheduled.map((s) => s.queue)).toEqual([SESSION_CLEANUP_QUEUE, REFUSED_SESSIONS_QUEUE]);
    // Five cron fields, once a day at a fixed hour.
    expect(scheduled[0].cron).toMatch(/^\d+ \d+ \* \* \*$/);
    // Minutes, not a day: an overdue company's sockets stop soon after its due date.
    expect(scheduled[1].cron).toBe('*/5 * * * *');

    const ids = await seed({
      old: { expiresAt: new Date(Date.now() - 3 * 24 * HOUR) },
      live: { expiresAt: new Date(Date.now() + HOUR) },
    });
    await scheduled[0].handler({});
    expect(await remaining()).toEqual([ids.live]);
  });
});
