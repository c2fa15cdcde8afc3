import { getSetting } from '../modules/settings/settings.service.js';
import { renderTemplate } from '../platform/templates.js';
import type { AutomationDeps, AutomationTicket } from './send-automatic.js';
import { sendAutomatic } from './send-automatic.js';

/** What the closing automations need: no logger, so the scheduled job can use them too. */
export type SayDeps = Pick<AutomationDeps, 'db' | 'realtime' | 'jobs'>;

/** Renders the variables of DOMAIN §6 for this ticket in the company's time zone. */
export async function renderFor(deps: SayDeps, ticket: AutomationTicket, text: string): Promise<string> {
  return renderTemplate(text, {
    contact: ticket.contact,
    ticket,
    now: new Date(),
    timeZone: await getSetting(deps.db, ticket.companyId, 'timezone'),
  });
}

/** Renders and sends an automatic message; an empty text sends nothing. */
export async function say(deps: SayDeps, ticket: AutomationTicket, text: string): Promise<void> {
  if (!text.trim()) return;
  await sendAutomatic(deps, ticket, await renderFor(deps, ticket, text));
}

export const joinParts = (...parts: string[]) =>
  parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n\n');
