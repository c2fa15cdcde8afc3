import { getSetting } from '../modules/settings/settings.service.js';
import type { SayDeps } from './say.js';
import { type AutomationTicket, sendAutomatic } from './send-automatic.js';

/** The notice text naming the new queue and/or user. */
export function transferText(queue: string | null, user: string | null): string {
  if (queue && user) return `Seu atendimento foi transferido para o setor *${queue}* e será continuado por *${user}*.`;
  if (queue) return `Seu atendimento foi transferido para o setor *${queue}*.`;
  return `Seu atendimento foi transferido para *${user}*.`;
}

/**
 * A transfer with setting `sendMsgTransfTicket` enabled tells the contact where the ticket went
 * (DOMAIN §4): the new queue when it changed, the new user when one was assigned.
 */
export async function transferNotice(
  deps: SayDeps,
  ticket: AutomationTicket,
  change: { queueChanged: boolean; userChanged: boolean },
): Promise<void> {
  const queue = change.queueChanged ? (ticket.queue?.name ?? null) : null;
  const user = change.userChanged ? (ticket.user?.name ?? null) : null;
  if (!queue && !user) return;
  if ((await getSetting(deps.db, ticket.companyId, 'sendMsgTransfTicket')) !== 'enabled') return;
  await sendAutomatic(deps, ticket, transferText(queue, user));
}
