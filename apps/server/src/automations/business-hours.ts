import type { WeeklyScheduleEntry } from '@balcao/shared';
import { eq } from 'drizzle-orm';
import type { StoredInbound } from '../inbound/handle-inbound.js';
import { tickets } from '../modules/tickets/tickets.schema.js';
import { selectTicket } from '../modules/tickets/tickets.view.js';
import { renderTemplate } from '../platform/templates.js';
import { partsOf, zonedFormatter, zonedMinuteParts } from '../platform/time-zones.js';
import { type InboundContext, inboundContext } from './context.js';
import { type AutomationDeps, sendAutomatic } from './send-automatic.js';

/**
 * Business hours of DOMAIN §3. A weekly schedule has (at most) one entry per weekday, matched by
 * `weekdayEn`, with `startTime`/`endTime` as 'HH:MM' in the company's time zone:
 * - start inclusive, end exclusive ('08:00'–'18:00' is open from 08:00 to 17:59);
 * - both times empty: open all day; only one empty: from 00:00 / until the end of the day;
 * - equal times ('00:00'–'00:00', the default Sunday): closed all day;
 * - an end before the start ('22:00'–'06:00'): open from the start to midnight and from
 *   midnight to the end of that same weekday;
 * - no schedule at all, or no entry for the day: open (nothing was configured).
 */

type Schedule = Pick<WeeklyScheduleEntry, 'weekdayEn' | 'startTime' | 'endTime'>;

const weekdayAndTime: Intl.DateTimeFormatOptions = {
  weekday: 'long',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};
const weekdayFormatter = zonedFormatter('en-US', weekdayAndTime);
const weekdayNow = zonedMinuteParts('en-US', weekdayAndTime);

const minutesOf = (hhmm: string): number | undefined => {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
};

/** Whether the schedule is open at the wall-clock weekday and time of `parts`. */
function openAt(schedules: readonly Schedule[], parts: Readonly<Record<string, string>>): boolean {
  if (schedules.length === 0) return true;
  const weekday = String(parts.weekday).toLowerCase();
  const entry = schedules.find((s) => s.weekdayEn.toLowerCase() === weekday);
  if (!entry) return true;
  const minute = Number(parts.hour) * 60 + Number(parts.minute);
  const start = minutesOf(entry.startTime ?? '') ?? 0;
  const end = minutesOf(entry.endTime ?? '') ?? 24 * 60;
  if (start === end) return false;
  if (start < end) return minute >= start && minute < end;
  return minute >= start || minute < end;
}

/** Whether the schedule is open at `now`, evaluated in `timeZone` (an unknown zone falls back to the default). */
export function isOpen(schedules: readonly Schedule[] | null | undefined, now: Date, timeZone: string): boolean {
  return openAt(schedules ?? [], weekdayNow(now, timeZone));
}

const MINUTE = 60_000;
/** Past this, a notification is always considered from an earlier closed period. */
const MAX_CLOSED_SPAN = 7 * 24 * 60 * MINUTE;

/**
 * Whether the schedule stayed closed for every minute from `since` to `now` (so a notification
 * sent at `since` belongs to the current closed period). Checked minute by minute (schedules have
 * minute precision), and never longer than 7 days: a schedule closed all week notifies weekly.
 */
export function closedThroughout(
  schedules: readonly Schedule[] | null | undefined,
  since: Date,
  now: Date,
  timeZone: string,
): boolean {
  if (now.getTime() - since.getTime() > MAX_CLOSED_SPAN) return false;
  const fmt = weekdayFormatter(timeZone);
  const list = schedules ?? [];
  for (let t = since.getTime(); t < now.getTime(); t += MINUTE) {
    if (openAt(list, partsOf(fmt, new Date(t)))) return false;
  }
  return !openAt(list, partsOf(fmt, now));
}

/**
 * The out-of-hours step (DOMAIN §1.7, §3), before the queue menu: for the contact's own messages on
 * tickets without a user. Setting `scheduleType` 'company' uses the company's schedule and the
 * connection's `outOfHoursMessage`; 'queue' (only once the ticket has a queue) uses that queue's
 * schedule and message, the connection's message when the queue has none.
 *
 * When closed: the message is sent at most once per ticket per closed period — it is skipped when
 * `tickets.outOfHoursNotifiedAt` is set and the schedule has been closed ever since (see
 * `closedThroughout`) — and the step returns 'handled' so neither menu nor chatbot answers.
 */
export async function outOfHours(
  deps: AutomationDeps,
  stored: StoredInbound,
  ctx: InboundContext = inboundContext(deps, stored),
): Promise<'handled' | 'continue'> {
  if (stored.fromMe) return 'continue';
  const mode = await ctx.setting(stored.companyId, 'scheduleType');
  if (mode !== 'company' && mode !== 'queue') return 'continue';
  const ticket = await ctx.ticket(stored);
  if (!ticket || ticket.userId !== null || ticket.isGroup || ticket.status === 'closed') return 'continue';

  let schedules: Schedule[];
  let message = '';
  if (mode === 'company') {
    schedules = (await ctx.companySchedules(stored.companyId)) ?? [];
  } else {
    if (ticket.queueId === null) return 'continue';
    const queue = (await ctx.companyQueues(stored.companyId)).get(ticket.queueId);
    schedules = queue?.schedules ?? [];
    message = queue?.outOfHoursMessage ?? '';
  }

  const now = deps.now?.() ?? new Date();
  const timeZone = await ctx.setting(stored.companyId, 'timezone');
  if (isOpen(schedules, now, timeZone)) return 'continue';
  const notifiedAt = ticket.outOfHoursNotifiedAt;
  if (notifiedAt && closedThroughout(schedules, notifiedAt, now, timeZone)) return 'handled';

  if (!message.trim()) message = (await ctx.connection(stored.companyId, stored.whatsappId)).outOfHoursMessage;
  if (!message.trim()) return 'handled';
  await deps.db.update(tickets).set({ outOfHoursNotifiedAt: now }).where(eq(tickets.id, stored.ticketId));
  ctx.ticketChanged(stored);
  const view = await selectTicket(deps.db, stored.companyId, stored.ticketId);
  if (!view) return 'handled';
  const automationTicket = { ...view, companyId: stored.companyId };
  const body = renderTemplate(message, { contact: view.contact, ticket: view, now, timeZone });
  await sendAutomatic(deps, automationTicket, body);
  return 'handled';
}
