import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import type { StoredInbound } from '../inbound/handle-inbound.js';
import {
  type BotAnswer,
  BotError,
  type BotMessage,
  type BotOutput,
  type ControlVerb,
} from '../modules/integrations/bots/bot.js';
import { createBotClient } from '../modules/integrations/bots/index.js';
import { botIntegrationOf, integrationRow, type SecretKey } from '../modules/integrations/integrations.service.js';
import {
  claimIntegrationTurn,
  closeExpiredSessions,
  type IntegrationSession,
  openIntegrationSession,
  pauseSession,
  pauseTicketSessions,
  recordBotTurn,
  releaseIntegrationTurn,
} from '../modules/integrations/integrations.sessions.js';
import { messages } from '../modules/messages/messages.schema.js';
import { listQueues } from '../modules/queues/queues.service.js';
import { tickets } from '../modules/tickets/tickets.schema.js';
import { finishCycle } from '../modules/tickets/tickets.tracking.js';
import { emitTicket, selectTicket } from '../modules/tickets/tickets.view.js';
import type { Jobs } from '../platform/jobs/jobs.js';
import type { Realtime } from '../platform/realtime/realtime.js';
import type { Storage } from '../platform/storage/storage.js';
import {
  agentTookOver,
  anyBot,
  type BotTicket,
  botIn,
  botOf,
  botTicket,
  currentCycle,
  inBotHands,
  moveToQueue,
} from './bot-ticket.js';
import { type InboundContext, inboundContext } from './context.js';
import { sendBotMedia } from './integration-media.js';
import { say } from './say.js';
import type { AutomationDeps } from './send-automatic.js';

/**
 * The queue integrations in the inbound pipeline (DOMAIN §1.7, §17). An inbound message on a ticket an
 * integration answers only opens its bot session and schedules the ticket's turn: a durable job keyed by
 * ticket, so a slow or failing bot never holds the pipeline. The turn feeds the bot each contact message
 * not yet fed, in order, sends what it answers and applies its control verbs.
 */

export const INTEGRATION_QUEUE = 'integration-turn';
export const INTEGRATION_EXPIRY_QUEUE = 'integration-sessions.expiry';

/** What the contact gets when the bot fails and the integration has no `typebotUnknownMessage`. */
export const BOT_FALLBACK_TEXT =
  'Desculpe, não consegui continuar agora. Um atendente vai falar com você em instantes.';

/** A turn longer than this is taken for dead (its instance crashed): the ticket is free again. */
const TURN_LEASE_MS = 2 * 60_000;
const TURN_CONCURRENCY = 4;
const BUSY_RETRY_MS = 1000;
/** Messages fed per read; a turn reads again until none is left. */
const BATCH = 20;
/** A bot's pauses (Typebot's wait, the delay between bubbles) are capped: a turn holds its ticket. */
const MAX_PAUSE_MS = 10_000;

type TurnJob = { companyId: number; ticketId: number };
const singletonKey = (ticketId: number) => `integration:${ticketId}`;

export interface IntegrationDeps {
  db: Db;
  realtime: Realtime;
  jobs: Jobs;
  storage: Storage;
  log: Logger;
  key: SecretKey;
  bots: { allowPrivate: boolean; dialogflowBaseUrl: string };
  /** Pauses between bubbles; tests make them instant. */
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** DOMAIN §1.7: the connection's integration while the ticket has no queue, then its queue's. */

/**
 * The inbound step: on a ticket an integration answers, open its session and schedule the turn, and stop
 * the automations after it (menu, chatbot). A message an agent sent from the phone pauses the bot.
 */
export async function runIntegration(
  deps: AutomationDeps,
  stored: StoredInbound,
  ctx: InboundContext = inboundContext(deps, stored),
): Promise<'handled' | 'continue'> {
  if (stored.fromMe) {
    const ticket = await ctx.ticket(stored);
    if (ticket) await pauseTicketSessions(deps.db, ticket.companyId, ticket.id);
    return 'continue';
  }
  // No integration on the connection nor on any queue of the company: no ticket can have one.
  if (!(await anyBot(ctx, stored, 'integrationId'))) return 'continue';
  const ticket = await ctx.ticket(stored);
  if (!inBotHands(ticket)) return 'continue';
  const integrationId = await botIn(ctx, ticket, 'integrationId');
  if (integrationId === null || !(await ctx.planAllows(ticket.companyId, 'useIntegrations'))) return 'continue';
  const integration = await integrationRow(deps.db, ticket.companyId, integrationId);
  if (!integration) return 'continue';
  const cycle = await currentCycle(deps.db, ticket.id);
  const session = await openIntegrationSession(deps.db, {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    integrationId,
    cycleId: cycle.id,
    messageId: stored.messageId,
    hours: integration.typebotExpires,
  });
  if (agentTookOver(cycle) || session.status !== 'active') return 'handled';
  await deps.db
    .update(tickets)
    .set({ useIntegration: true, integrationId })
    .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, ticket.companyId)));
  ctx.ticketChanged(stored);
  await deps.jobs.send<TurnJob>(
    INTEGRATION_QUEUE,
    { companyId: ticket.companyId, ticketId: ticket.id },
    { singletonKey: singletonKey(ticket.id), retryLimit: 1 },
  );
  return 'handled';
}

/** Keywords compare trimmed, case- and accent-insensitively (DOMAIN §17). */
export const keywordOf = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .trim()
    .toLowerCase();

type FedRow = Pick<typeof messages.$inferSelect, 'id' | 'body' | 'mediaType' | 'transcript'>;

/** Contact messages the bot has not taken yet; event lines (calls, transfers) never reach a bot. */
async function unfed(db: Db, session: IntegrationSession): Promise<FedRow[]> {
  return db
    .select({ id: messages.id, body: messages.body, mediaType: messages.mediaType, transcript: messages.transcript })
    .from(messages)
    .where(
      and(
        eq(messages.ticketId, session.ticketId),
        gt(messages.id, session.processedUpTo),
        eq(messages.fromMe, false),
        eq(messages.isDeleted, false),
        inArray(messages.mediaType, ['chat', 'image', 'audio', 'video', 'application', 'locationMessage', 'vcard']),
      ),
    )
    .orderBy(asc(messages.id))
    .limit(BATCH);
}

const botMessageOf = (row: FedRow): BotMessage => ({
  id: row.id,
  type: row.mediaType,
  text: row.body,
  ...(row.transcript ? { transcript: row.transcript } : {}),
});

/** Closes the ticket on the bot's `close` verb, as the inactivity expiry does. */
async function closeTicket(deps: IntegrationDeps, ticket: BotTicket): Promise<void> {
  const closed = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(tickets)
      .set({ status: 'closed', useIntegration: false, integrationId: null, chatbot: false })
      .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, ticket.companyId), eq(tickets.status, 'pending')))
      .returning({ id: tickets.id });
    if (row) await finishCycle(tx as unknown as Db, ticket.id, ticket.userId);
    return Boolean(row);
  });
  if (!closed) return;
  const view = await selectTicket(deps.db, ticket.companyId, ticket.id);
  if (view) emitTicket(deps.realtime, ticket.companyId, view, { queueId: ticket.queueId, userId: ticket.userId });
}

/** The ticket leaves the bot and waits for people in its queue. */
async function releaseToPeople(deps: IntegrationDeps, ticket: BotTicket): Promise<void> {
  await deps.db
    .update(tickets)
    .set({ useIntegration: false, integrationId: null })
    .where(and(eq(tickets.id, ticket.id), eq(tickets.companyId, ticket.companyId)));
  const view = await selectTicket(deps.db, ticket.companyId, ticket.id);
  if (view) emitTicket(deps.realtime, ticket.companyId, view, { queueId: ticket.queueId, userId: ticket.userId });
}

async function sendText(deps: IntegrationDeps, ticket: BotTicket, text: string): Promise<void> {
  const view = await selectTicket(deps.db, ticket.companyId, ticket.id);
  if (view) await say(deps, { ...view, companyId: ticket.companyId }, text);
}

async function deliver(deps: IntegrationDeps, ticket: BotTicket, outputs: BotOutput[], delayMs: number) {
  const sleep = deps.sleep ?? realSleep;
  let first = true;
  for (const out of outputs) {
    if (out.kind === 'wait') {
      await sleep(Math.min(out.ms, MAX_PAUSE_MS));
      continue;
    }
    if (!first && delayMs > 0) await sleep(Math.min(delayMs, MAX_PAUSE_MS));
    first = false;
    if (out.kind === 'text') await sendText(deps, ticket, out.text);
    else await sendBotMedia(deps, ticket, out);
  }
}

/**
 * Applies the bot's control verbs, validated against the company: 'stop' when the ticket left the bot.
 * An unknown queue is ignored (logged), as the AI assistant does.
 */
async function applyActions(deps: IntegrationDeps, ticket: BotTicket, actions: ControlVerb[]): Promise<'stop' | 'go'> {
  for (const action of actions) {
    if (action.verb === 'close') {
      await closeTicket(deps, ticket);
      return 'stop';
    }
    if (action.verb === 'handoff') {
      await releaseToPeople(deps, ticket);
      return 'stop';
    }
    const queueIds = new Set((await listQueues(deps.db, ticket.companyId)).map((q) => q.id));
    if (!queueIds.has(action.queueId)) {
      deps.log.warn({ ticketId: ticket.id, queueId: action.queueId }, 'integration asked for an unknown queue');
      continue;
    }
    await moveToQueue(deps, ticket, action.queueId);
    return 'stop';
  }
  return 'go';
}

/** One turn on a ticket the turn holds: every unfed contact message, in order. */
async function turn(deps: IntegrationDeps, session: IntegrationSession): Promise<void> {
  const row = await integrationRow(deps.db, session.companyId, session.integrationId);
  const integration = row && botIntegrationOf(deps.key, row);
  if (!row || !integration) return;
  const client = createBotClient(integration.type, deps.bots);
  let state = { sessionId: session.externalSessionId, choices: session.pendingChoices };
  for (;;) {
    const ticket = await botTicket(deps.db, session.companyId, session.ticketId);
    if (!inBotHands(ticket) || (await botOf(deps.db, ticket, 'integrationId')) !== integration.id) return;
    if (agentTookOver(await currentCycle(deps.db, ticket.id))) {
      await pauseSession(deps.db, session.id);
      return;
    }
    const rows = await unfed(deps.db, session);
    if (rows.length === 0) return;
    for (const msg of rows) {
      const keyword = keywordOf(msg.body);
      if (keyword && keyword === keywordOf(row.typebotKeywordFinish)) {
        await pauseSession(deps.db, session.id, msg.id);
        await releaseToPeople(deps, ticket);
        return;
      }
      if (keyword && keyword === keywordOf(row.typebotKeywordRestart)) {
        state = { sessionId: null, choices: [] };
        await recordBotTurn(deps.db, session.id, {
          processedUpTo: msg.id,
          ...stateColumns(state),
          hours: row.typebotExpires,
        });
        await sendText(deps, ticket, row.typebotRestartMessage);
        continue;
      }
      let answer: BotAnswer;
      try {
        answer = await client.turn({
          integration,
          sessionId: state.sessionId,
          choices: state.choices,
          deliveryId: randomUUID(),
          ticketId: ticket.id,
          contact: await contactOf(deps.db, ticket),
          message: botMessageOf(msg),
        });
      } catch (err) {
        if (!(err instanceof BotError)) throw err;
        // DOMAIN §17: one message, then the ticket waits for people; the session never speaks again this cycle.
        deps.log.warn({ ticketId: ticket.id, integrationId: integration.id, err: err.message }, 'integration failed');
        await pauseSession(deps.db, session.id, rows[rows.length - 1].id);
        await sendText(deps, ticket, row.typebotUnknownMessage || BOT_FALLBACK_TEXT);
        await releaseToPeople(deps, ticket);
        return;
      }
      state = { sessionId: answer.sessionId ?? state.sessionId, choices: answer.pendingChoices ?? [] };
      await recordBotTurn(deps.db, session.id, {
        processedUpTo: msg.id,
        ...stateColumns(state),
        hours: row.typebotExpires,
      });
      await deliver(deps, ticket, answer.outputs, row.typebotDelayMessage);
      if ((await applyActions(deps, ticket, answer.actions)) === 'stop' || answer.finished) {
        await pauseSession(deps.db, session.id, msg.id);
        // A flow that ended leaves the conversation to people, as a handoff does.
        if (answer.actions.length === 0) await releaseToPeople(deps, ticket);
        return;
      }
    }
    session.processedUpTo = rows[rows.length - 1].id;
  }
}

const stateColumns = (s: { sessionId: string | null; choices: string[] }) => ({
  externalSessionId: s.sessionId,
  pendingChoices: s.choices,
});

async function contactOf(db: Db, ticket: BotTicket) {
  const view = await selectTicket(db, ticket.companyId, ticket.id);
  return { number: view?.contact.number ?? '', name: view?.contact.name ?? '' };
}

/** Runs the ticket's turn if it is free; otherwise comes back shortly (one turn at a time per ticket). */
export async function runIntegrationTurn(deps: IntegrationDeps, job: TurnJob): Promise<void> {
  const ticket = await botTicket(deps.db, job.companyId, job.ticketId);
  if (!ticket) return;
  const integrationId = await botOf(deps.db, ticket, 'integrationId');
  if (integrationId === null) return;
  const claimed = await claimIntegrationTurn(deps.db, job.companyId, job.ticketId, integrationId, TURN_LEASE_MS);
  if (claimed === 'missing') return;
  if (claimed === 'busy') {
    await deps.jobs.send<TurnJob>(INTEGRATION_QUEUE, job, {
      singletonKey: singletonKey(job.ticketId),
      startAfter: new Date(Date.now() + BUSY_RETRY_MS),
      retryLimit: 1,
    });
    return;
  }
  try {
    await turn(deps, claimed);
  } finally {
    await releaseIntegrationTurn(deps.db, claimed.id);
  }
}

/** The worker of the turns and the expiry timer (runtime.ts). */
export async function registerIntegrations(deps: IntegrationDeps): Promise<void> {
  await deps.jobs.work<TurnJob>(INTEGRATION_QUEUE, (job) => runIntegrationTurn(deps, job), {
    policy: 'short',
    concurrency: TURN_CONCURRENCY,
  });
  await deps.jobs.schedule(INTEGRATION_EXPIRY_QUEUE, '* * * * *', async () => {
    await closeExpiredSessions(deps.db);
  });
}
