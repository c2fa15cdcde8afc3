import { z } from 'zod';
import { int4, isoDate } from './common.js';

/** The 'Filtro por Período' choices of spec part 2 §9, in days (none is the empty choice). */
export const DASHBOARD_PERIOD_DAYS = [3, 7, 15, 30, 60, 90] as const;
/** "Initial dashboard load after 1 second" (spec part 2 §9). */
export const DASHBOARD_FIRST_LOAD_MS = 1_000;
/** Ticket events arrive in bursts (a busy queue): the counters are read again once they settle. */
export const DASHBOARD_LIVE_DEBOUNCE_MS = 1_000;

/** A calendar day PostgreSQL can hold (year 0000 passes the ISO check but is no date). */
const day = isoDate.refine((d) => d >= '1900-01-01', 'Date out of range');

/**
 * `GET /dashboard` (spec part 2 §7). `days=N` is the last N calendar days up to today; otherwise
 * `date_from`..`date_to`, a missing end being today and a missing start the first day of the end's
 * month. Both ends are whole days in the company's time zone (DOMAIN §9).
 */
export const dashboardQuery = z
  .object({
    days: int4({ min: 1, max: 3660 }).optional(),
    date_from: day.optional(),
    date_to: day.optional(),
  })
  .refine((q) => q.days === undefined || (q.date_from === undefined && q.date_to === undefined), {
    message: 'Give days or dates, not both',
    path: ['days'],
  })
  .refine((q) => !q.date_from || !q.date_to || q.date_from <= q.date_to, {
    message: 'date_from is after date_to',
    path: ['date_from'],
  });
export type DashboardQuery = z.infer<typeof dashboardQuery>;

/** Minutes (two decimals); null when no cycle of the period has the duration. */
const minutes = z.number().nullable();

export const dashboardCounters = z.object({
  /** Live snapshots, whatever the period. */
  supportPending: z.number(),
  supportHappening: z.number(),
  /** Service cycles closed in the period. */
  supportFinished: z.number(),
  /** Contacts whose first ticket ever was created in the period. */
  leads: z.number(),
  /** Closed − accepted, over the cycles closed in the period. */
  avgSupportTime: minutes,
  medianSupportTime: minutes,
  /** Accepted − queued, over the cycles accepted in the period. */
  avgWaitTime: minutes,
  medianWaitTime: minutes,
  /** First agent message − queued, over the cycles first answered in the period (beyond the spec). */
  firstResponseTime: minutes,
  medianFirstResponseTime: minutes,
});
export type DashboardCounters = z.infer<typeof dashboardCounters>;

export const dashboardAttendant = z.object({
  id: z.number(),
  name: z.string(),
  avatar: z.string().nullable(),
  /** Average of the ratings given in the period, one per rated cycle; null when none. */
  rating: z.number().nullable(),
  ratings: z.number(),
  /** Minutes, over the cycles the attendant closed in the period; null when none. */
  avgSupportTime: minutes,
  supportFinished: z.number(),
  online: z.boolean(),
});
export type DashboardAttendant = z.infer<typeof dashboardAttendant>;

export const dashboardReply = z.object({
  counters: dashboardCounters,
  attendants: z.array(dashboardAttendant),
  /** Tickets created today, by local hour: 24 buckets, `hour` 0 is 00:00–01:00. */
  hourly: z.array(z.object({ hour: z.number(), count: z.number() })),
  /** The period the counters cover, as local calendar days, and the time zone they were read in. */
  period: z.object({ from: z.string(), to: z.string(), timezone: z.string() }),
});
export type DashboardReply = z.infer<typeof dashboardReply>;
