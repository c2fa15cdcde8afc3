import { and, eq } from 'drizzle-orm';
import type { StoredInbound } from '../inbound/handle-inbound.js';
import { getSetting } from '../modules/settings/settings.service.js';
import { tickets } from '../modules/tickets/tickets.schema.js';
import { selectTicket } from '../modules/tickets/tickets.view.js';
import { whatsapps } from '../modules/whatsapp/whatsapp.schema.js';
import { localTime, renderTemplate } from '../platform/templates.js';
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
export async function holiday(deps: AutomationDeps, stored: StoredInbound): Promise<'handled' | 'continue'> {
  if (stored.fromMe) return 'continue';
  const [connection] = await deps.db
    .select({
      message: whatsapps.queueHolidayMessage,
      start: whatsapps.queueHolidayDate,
      end: whatsapps.queueHolidayEnd,
    })
    .from(whatsapps)
    .where(and(eq(whatsapps.id, stored.whatsappId), eq(whatsapps.companyId, stored.companyId)));
  if (!connection?.message.trim() || !connection.start) return 'continue';
  const { message, start, end } = connection;

  const now = deps.now?.() ?? new Date();
  const timeZone = await getSetting(deps.db, stored.companyId, 'timezone');
  if (!inHoliday(localDate(now, timeZone), start, end)) return 'continue';

  const [ticket] = await deps.db
    .select({
      userId: tickets.userId,
      isGroup: tickets.isGroup,
      status: tickets.status,
      notifiedAt: tickets.outOfHoursNotifiedAt,
    })
    .from(tickets)
    .where(and(eq(tickets.id, stored.ticketId), eq(tickets.companyId, stored.companyId)));
  if (!ticket || ticket.userId !== null || ticket.isGroup || ticket.status === 'closed') return 'continue';
  if (ticket.notifiedAt && inHoliday(localDate(ticket.notifiedAt, timeZone), start, end)) return 'handled';

  await deps.db.update(tickets).set({ outOfHoursNotifiedAt: now }).where(eq(tickets.id, stored.ticketId));
  const view = await selectTicket(deps.db, stored.companyId, stored.ticketId);
  if (!view) return 'handled';
  const body = renderTemplate(message, { contact: view.contact, ticket: view, now, timeZone });
  await sendAutomatic(deps, { ...view, companyId: stored.companyId }, body);
  return 'handled';
}
