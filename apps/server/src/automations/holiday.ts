import { eq } from 'drizzle-orm';
import type { StoredInbound } from '../inbound/handle-inbound.js';
import { tickets } from '../modules/tickets/tickets.schema.js';
import { selectTicket } from '../modules/tickets/tickets.view.js';
import { localTime, renderTemplate } from '../platform/templates.js';
import { type InboundContext, inboundContext } from './context.js';
import { type AutomationDeps, sendAutomatic } from './send-automatic.js';

/** The 'YYYY-MM-DD' of `at` on the company's wall calendar. */
function localDate(at: Date, timeZone: string): string {
  const t = localTime(at, timeZone);
  return `${t.year}-${t.month}-${t.day}`;
}

/** Whether the local day `day` is inside `start`..`end` (ISO dates, inclusive; no end = `start` alone). */
export function inHoliday(day: string, start: string | null, end: string | null): boolean {
  if (!start) return false;
  return day >= start && day <= (end ?? start);
}

/**
 * The holiday step, before the out-of-hours one (a holiday beats business hours): while today, in
 * the company's time zone, is inside the connection's `queueHolidayDate`..`queueHolidayEnd`, the
 * contact's messages on tickets without a user get `queueHolidayMessage` once and no menu.
 *
 * "Once per ticket per holiday period" reuses `tickets.outOfHoursNotifiedAt` (the contact was told
 * we are closed): a notification whose local date falls inside the current period means it was sent.
 */
export async function holiday(
  deps: AutomationDeps,
  stored: StoredInbound,
  ctx: InboundContext = inboundContext(deps, stored),
): Promise<'handled' | 'continue'> {
  if (stored.fromMe) return 'continue';
  const connection = await ctx.connectionRow(stored.companyId, stored.whatsappId);
  if (!connection?.queueHolidayMessage.trim() || !connection.queueHolidayDate) return 'continue';
  const { queueHolidayMessage: message, queueHolidayDate: start, queueHolidayEnd: end } = connection;

  const now = deps.now?.() ?? new Date();
  const timeZone = await ctx.setting(stored.companyId, 'timezone');
  if (!inHoliday(localDate(now, timeZone), start, end)) return 'continue';

  const ticket = await ctx.ticket(stored);
  if (!ticket || ticket.userId !== null || ticket.isGroup || ticket.status === 'closed') return 'continue';
  const notifiedAt = ticket.outOfHoursNotifiedAt;
  if (notifiedAt && inHoliday(localDate(notifiedAt, timeZone), start, end)) return 'handled';

  await deps.db.update(tickets).set({ outOfHoursNotifiedAt: now }).where(eq(tickets.id, stored.ticketId));
  ctx.ticketChanged(stored);
  const view = await selectTicket(deps.db, stored.companyId, stored.ticketId);
  if (!view) return 'handled';
  const body = renderTemplate(message, { contact: view.contact, ticket: view, now, timeZone });
  await sendAutomatic(deps, { ...view, companyId: stored.companyId }, body);
  return 'handled';
}
