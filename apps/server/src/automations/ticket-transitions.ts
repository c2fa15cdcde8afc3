import { type TicketTransition, transferOf } from '../modules/tickets/tickets.service.js';
import { acceptGreeting } from './accept-greeting.js';
import { afterClose } from './rating.js';
import type { SayDeps } from './say.js';
import { transferNotice } from './transfer-notice.js';

/**
 * The automatic messages of an agent's ticket change (DOMAIN §4): close (rating or completion),
 * accept (greeting) or transfer (notice). Runs after the change is saved and announced.
 */
export async function runTicketTransition(deps: SayDeps, { ctx, before, ticket }: TicketTransition): Promise<void> {
  const t = { ...ticket, companyId: ctx.companyId };
  if (ticket.status === 'closed') {
    if (before.status !== 'closed') await afterClose(deps, t);
    return;
  }
  if (before.status === 'closed') return;
  const transfer = transferOf(ctx.userId, before, ticket);
  if (transfer) return transferNotice(deps, t, transfer);
  if (before.status === 'pending' && ticket.status === 'open') return acceptGreeting(deps, t);
}
