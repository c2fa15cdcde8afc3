import type { DashboardAttendant, DashboardQuery, DashboardReply } from '@balcao/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { localTime } from '../../platform/templates.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { knownZone } from '../../platform/time-zones.js';
import { getSetting } from '../settings/settings.service.js';
import { ticketCounts, tickets, ticketTraking, userRatings } from '../tickets/tickets.schema.js';
import { users } from '../users/users.schema.js';

/**
 * The dashboard of DOMAIN §9. A report reads the tables of tickets, their tracking records and
 * users directly (one indexed query per metric, run side by side) rather than through the modules'
 * services, which would read the same rows one record at a time.
 *
 * Every metric is filtered on its own event time with one predicate, `[from 00:00, to + 1 day 00:00)`
 * in the company's time zone. Durations are the epoch differences in seconds each transition stored on
 * its cycle (tickets.tracking), answered in minutes.
 */

/** `yyyy-mm-dd` shifted by whole days (calendar arithmetic, no time zone involved). */
function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The period's first and last local calendar days. */
export function periodOf(q: DashboardQuery, today: string): { from: string; to: string } {
  if (q.days !== undefined) return { from: addDays(today, 1 - q.days), to: today };
  const to = q.date_to ?? today;
  return { from: q.date_from ?? `${to.slice(0, 8)}01`, to };
}

/** Seconds → minutes with two decimals; null stays null. */
const toMinutes = (seconds: number | null) => (seconds === null ? null : Math.round((seconds / 60) * 100) / 100);

type Row = Record<string, unknown>;

async function rows<T extends Row>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** avg and median of a stored duration in seconds (aggregates skip the cycles without one). */
const stats = (seconds: AnyPgColumn) =>
  sql`avg(${seconds})::float8 as avg, percentile_cont(0.5) within group (order by ${seconds})::float8 as median`;

export async function getDashboard(ctx: ServiceContext, q: DashboardQuery, now = new Date()): Promise<DashboardReply> {
  const { db, companyId } = ctx;
  const timezone = knownZone(await getSetting(db, companyId, 'timezone'));
  const local = localTime(now, timezone);
  const today = `${local.year}-${local.month}-${local.day}`;
  const { from, to } = periodOf(q, today);
  // Local midnights as instants, computed by PostgreSQL from the zone's rules (DST included).
  const midnight = (day: string) => sql`(${day}::date::timestamp at time zone ${timezone})`;
  const inPeriod = (column: unknown) => sql`${column} >= ${midnight(from)} and ${column} < ${midnight(addDays(to, 1))}`;
  const cycle = sql`${ticketTraking.companyId} = ${companyId}`;

  const [live, [finished], perUser, waits, responses, ratings, leads, hourly, people] = await Promise.all([
    // Summed from the kept counts (migration 0024): counting the bench's 30k open and pending tickets took 10 ms in psql, the sum 0.8.
    rows<{ pending: number; happening: number }>(
      db,
      sql`select coalesce(sum(${ticketCounts.count}) filter (where ${ticketCounts.status} = 'pending'), 0)::int as pending,
            coalesce(sum(${ticketCounts.count}) filter (where ${ticketCounts.status} = 'open'), 0)::int as happening
          from ${ticketCounts} where ${ticketCounts.companyId} = ${companyId} and ${ticketCounts.status} in ('pending', 'open')`,
    ),
    rows<{ n: number; avg: number | null; median: number | null }>(
      db,
      sql`select count(*)::int as n, ${stats(ticketTraking.supportSeconds)}
          from ${ticketTraking} where ${cycle} and ${inPeriod(ticketTraking.finishedAt)}`,
    ),
    // Per closing user, without the median (grouping sets would sort every group for it).
    rows<{ user_id: number | null; n: number; avg: number | null }>(
      db,
      sql`select ${ticketTraking.userId} as user_id, count(*)::int as n,
            avg(${ticketTraking.supportSeconds})::float8 as avg
          from ${ticketTraking} where ${cycle} and ${inPeriod(ticketTraking.finishedAt)}
          group by ${ticketTraking.userId}`,
    ),
    rows<{ avg: number | null; median: number | null }>(
      db,
      sql`select ${stats(ticketTraking.waitSeconds)} from ${ticketTraking}
          where ${cycle} and ${inPeriod(ticketTraking.startedAt)}`,
    ),
    rows<{ avg: number | null; median: number | null }>(
      db,
      sql`select ${stats(ticketTraking.firstReplySeconds)} from ${ticketTraking}
          where ${cycle} and ${inPeriod(ticketTraking.firstReplyAt)}`,
    ),
    // One rating per rated cycle: averaged as given, never joined to other per-day rows.
    rows<{ user_id: number; avg: number; n: number }>(
      db,
      sql`select ${userRatings.userId} as user_id, avg(${userRatings.rate})::float8 as avg, count(*)::int as n
          from ${userRatings}
          where ${userRatings.companyId} = ${companyId} and ${inPeriod(userRatings.createdAt)}
            and ${userRatings.userId} is not null
          group by ${userRatings.userId}`,
    ),
    // A lead: a contact whose first ticket ever was opened in the period (marked on its first cycle).
    rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${ticketTraking}
          where ${cycle} and ${ticketTraking.lead} and ${inPeriod(ticketTraking.queuedAt)}`,
    ),
    rows<{ hour: number; n: number }>(
      db,
      sql`select extract(hour from ${tickets.createdAt} at time zone ${timezone})::int as hour, count(*)::int as n
          from ${tickets}
          where ${tickets.companyId} = ${companyId}
            and ${tickets.createdAt} >= ${midnight(today)} and ${tickets.createdAt} < ${midnight(addDays(today, 1))}
          group by 1`,
    ),
    db
      .select({ id: users.id, name: users.name, avatar: users.avatar, online: users.online })
      .from(users)
      .where(eq(users.companyId, companyId))
      .orderBy(sql`lower(${users.name})`, users.id),
  ]);

  const byUser = new Map(perUser.map((r) => [r.user_id, r]));
  const ratingOf = new Map(ratings.map((r) => [r.user_id, r]));
  const attendants: DashboardAttendant[] = people.map((u) => {
    const closed = byUser.get(u.id);
    const rated = ratingOf.get(u.id);
    return {
      ...u,
      rating: rated ? Math.round(rated.avg * 100) / 100 : null,
      ratings: rated?.n ?? 0,
      avgSupportTime: toMinutes(closed?.avg ?? null),
      supportFinished: closed?.n ?? 0,
    };
  });
  const perHour = new Map(hourly.map((r) => [r.hour, r.n]));
  return {
    counters: {
      supportPending: live[0]?.pending ?? 0,
      supportHappening: live[0]?.happening ?? 0,
      supportFinished: finished?.n ?? 0,
      leads: leads[0]?.n ?? 0,
      avgSupportTime: toMinutes(finished?.avg ?? null),
      medianSupportTime: toMinutes(finished?.median ?? null),
      avgWaitTime: toMinutes(waits[0]?.avg ?? null),
      medianWaitTime: toMinutes(waits[0]?.median ?? null),
      firstResponseTime: toMinutes(responses[0]?.avg ?? null),
      medianFirstResponseTime: toMinutes(responses[0]?.median ?? null),
    },
    attendants,
    hourly: Array.from({ length: 24 }, (_, hour) => ({ hour, count: perHour.get(hour) ?? 0 })),
    period: { from, to, timezone },
  };
}
