import type { StoredInbound } from '../inbound/handle-inbound.js';
import { runQueueMenu } from './queue-menu.js';
import type { AutomationDeps } from './send-automatic.js';

/** One automation of DOMAIN §1.7: 'handled' stops the ones after it for this message. */
export type InboundStep = (
  deps: AutomationDeps,
  stored: StoredInbound,
) => Promise<'handled' | 'continue' | undefined | void>;

/** The automations after an inbound message, in the order DOMAIN §1.7 gives them. */
const steps: InboundStep[] = [runQueueMenu];

export async function runInboundAutomations(deps: AutomationDeps, stored: StoredInbound): Promise<void> {
  for (const step of steps) {
    if ((await step(deps, stored)) === 'handled') return;
  }
}
