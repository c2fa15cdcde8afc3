import type { Db } from '../db/client.js';
import type { StoredInbound } from '../inbound/handle-inbound.js';
import { type AiPromptStepDeps, runAiPrompt } from './ai-prompt.js';
import { outOfHours } from './business-hours.js';
import { type InboundContext, inboundContext } from './context.js';
import { holiday } from './holiday.js';
import { runIntegration } from './integration.js';
import { runQueueMenu } from './queue-menu.js';
import { runRatingAnswer } from './rating.js';
import type { AutomationDeps } from './send-automatic.js';

/**
 * One automation of DOMAIN §1.7: 'handled' stops the ones after it for this message. `ctx` holds
 * what the message's batch has read (automations/context.ts).
 */
export type InboundStep = (
  deps: AutomationDeps,
  stored: StoredInbound,
  ctx?: InboundContext,
) => Promise<'handled' | 'continue' | undefined>;

/** The queue menu and its chatbot come last: whatever they decide, nothing follows them. */
const queueMenu: InboundStep = async (deps, stored, ctx = inboundContext(deps, stored)) => {
  await runQueueMenu(deps, stored, ctx);
  // DOMAIN §2: the queue the menu gave the new ticket (a connection's only queue) starts its prompt or integration.
  if (stored.ticketOpened && (await runAiPrompt(deps, stored, ctx)) === 'continue')
    await runIntegration(deps, stored, ctx);
  return 'handled';
};

/**
 * The automations after an inbound message, in the order DOMAIN §1.7 gives them. An answer to a
 * pending rating (DOMAIN §4) is not a new conversation: nothing after it runs. A holiday beats
 * business hours. The AI prompt (connection's, then queue's: DOMAIN §16), then the integration (§17),
 * come before the menu.
 */
const steps: InboundStep[] = [runRatingAnswer, holiday, outOfHours, runAiPrompt, runIntegration, queueMenu];

/**
 * A stored batch's automations start reading what they share (the company's configuration: see
 * context.ts) while the batch's own work runs, before its messages' automations wait for it. A batch
 * written on the phone only reads nothing.
 */
export function prepareInboundAutomations(deps: { db: Db }, stored: readonly StoredInbound[]): void {
  const received = stored.find((s) => !s.fromMe);
  if (received) inboundContext(deps, received);
}

export async function runInboundAutomations(deps: AiPromptStepDeps, stored: StoredInbound): Promise<void> {
  const ctx = inboundContext(deps, stored);
  for (const step of steps) {
    if ((await step(deps, stored, ctx)) === 'handled') return;
  }
}
