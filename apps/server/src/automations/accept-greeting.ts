import { getSetting } from '../modules/settings/settings.service.js';
import { renderFor, type SayDeps } from './say.js';
import { type AutomationTicket, sendAutomatic } from './send-automatic.js';

/**
 * The greeting posted when an agent accepts a pending ticket (DOMAIN §4, spec §4), with setting
 * `sendGreetingAccepted` enabled and not for groups. The agent's name is added after rendering,
 * so a name that looks like a `{{variable}}` is sent as written.
 */
export async function acceptGreeting(deps: SayDeps, ticket: AutomationTicket): Promise<void> {
  if (ticket.isGroup || !ticket.user) return;
  if ((await getSetting(deps.db, ticket.companyId, 'sendGreetingAccepted')) !== 'enabled') return;
  const opening = await renderFor(deps, ticket, '{{ms}} *{{name}}*, meu nome é *');
  await sendAutomatic(deps, ticket, `${opening}${ticket.user.name}* e agora vou prosseguir com seu atendimento!`);
}
