import type { QueueOption, Ticket } from '@balcao/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import type { StoredInbound } from '../inbound/handle-inbound.js';
import { messages } from '../modules/messages/messages.schema.js';
import { queues } from '../modules/queues/queues.schema.js';
import type { QueueRef } from '../modules/queues/queues.service.js';
import { type BotChange, updateBotStates } from '../modules/tickets/tickets.bot-state.js';
import { emitTicket } from '../modules/tickets/tickets.view.js';
import { sameTick } from '../platform/same-tick.js';
import { renderTemplate } from '../platform/templates.js';
import { type InboundContext, inboundContext, type TicketState } from './context.js';
import { type AutomationDeps, type AutomationTicket, sendAutomatic } from './send-automatic.js';

/**
 * The queue menu and the queue-options chatbot of DOMAIN §2. The per-ticket state lives in the
 * ticket: `queueId` (chosen queue), `queueOptionId` (current node of the options tree, null at
 * its first level), `chatbot` (walking the options) and `amountUsedBotQueues` (menus sent).
 */

type BotState = Pick<
  TicketState,
  | 'id'
  | 'companyId'
  | 'whatsappId'
  | 'userId'
  | 'queueId'
  | 'queueOptionId'
  | 'chatbot'
  | 'amountUsedBotQueues'
  | 'isGroup'
  | 'status'
>;
const pick = (t: TicketState): BotState => ({
  id: t.id,
  companyId: t.companyId,
  whatsappId: t.whatsappId,
  userId: t.userId,
  queueId: t.queueId,
  queueOptionId: t.queueOptionId,
  chatbot: t.chatbot,
  amountUsedBotQueues: t.amountUsedBotQueues,
  isGroup: t.isGroup,
  status: t.status,
});
type StateChange = Partial<Pick<BotState, 'queueId' | 'queueOptionId' | 'chatbot' | 'amountUsedBotQueues'>>;

interface Run {
  deps: AutomationDeps;
  ctx: InboundContext;
  stored: StoredInbound;
  state: BotState;
  connection: { greetingMessage: string; maxUseBotQueues: number; timeUseBotQueues: number };
  queues: QueueRef[];
  timeZone: string;
  /** The ticket as `update` last read it to announce it, while nothing changed it since. */
  view?: Ticket;
  /** A change with nothing to announce, not yet written: it rides on the next automatic message. */
  unsaved?: StateChange;
}

export const MAIN_MENU_LINE = '*[ # ]* - Menu inicial';
export const BACK_LINE = '*[ 0 ]* - Voltar';

export const menuLine = (n: number, title: string) => `*[ ${n} ]* - ${title}`;

const join = (...parts: string[]) =>
  parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n\n');

async function ticketView(run: Run): Promise<AutomationTicket> {
  const view = run.view ?? (await run.ctx.ticketView(run.state.companyId, run.state.id));
  if (!view) throw new Error(`ticket ${run.state.id} vanished`);
  return { ...view, companyId: run.state.companyId };
}

/** Renders the variables of §6 and sends the text, if any is left. */
async function say(run: Run, text: string): Promise<void> {
  if (!text.trim()) return;
  const ticket = await ticketView(run);
  // Sending changes the ticket (its last message).
  run.view = undefined;
  const body = renderTemplate(text, {
    contact: ticket.contact,
    ticket,
    now: new Date(),
    timeZone: run.timeZone,
  });
  // The unsaved bot state is written by the message's own statement.
  const change = run.unsaved;
  run.unsaved = undefined;
  await sendAutomatic(run.deps, ticket, body, undefined, change);
  run.ctx.ticketChanged(run.stored);
}

/**
 * Saves the bot state. A change of queue or chatbot flag is written at once and announced to the
 * rooms before and after; any other change waits for the next automatic message (`say`), or for
 * the end of the run (`save`).
 */
async function update(run: Run, change: StateChange): Promise<void> {
  const before = { queueId: run.state.queueId, userId: run.state.userId };
  Object.assign(run.state, change);
  const announced = change.queueId !== undefined || change.chatbot !== undefined;
  run.unsaved = { ...run.unsaved, ...change };
  if (!announced) return;
  await save(run);
  const view = await run.ctx.ticketView(run.state.companyId, run.state.id);
  if (view) emitTicket(run.deps.realtime, run.state.companyId, view, before);
  // What `say` would read next: nothing changes the ticket in between.
  run.view = view;
}

async function save(run: Run): Promise<void> {
  if (!run.unsaved) return;
  await saveTogether(
    { db: run.deps.db, companyId: run.state.companyId },
    { ticketId: run.state.id, change: run.unsaved },
  );
  run.unsaved = undefined;
  run.ctx.ticketChanged(run.stored);
}

/** The menus of a batch's tickets run side by side: their saves of the same moment share one statement. */
const saveTogether = sameTick<{ db: Db; companyId: number }, { ticketId: number; change: BotChange }, void>({
  sameGroup: (a, b) => a.db === b.db && a.companyId === b.companyId,
  key: (row) => row.ticketId,
  async run({ db, companyId }, rows) {
    await updateBotStates(db, companyId, rows);
    return rows.map(() => ({ status: 'fulfilled' as const, value: undefined }));
  },
});

const numberOf = (answer: string) => (/^\d{1,4}$/.test(answer) ? Number(answer) : Number.NaN);

/** When the bot last spoke on this ticket: the start of the `timeUseBotQueues` window. */
async function lastBotUse(run: Run): Promise<Date | undefined> {
  const [row] = await run.deps.db
    .select({ at: messages.createdAt })
    .from(messages)
    .where(and(eq(messages.ticketId, run.state.id), eq(messages.isAutomatic, true)))
    .orderBy(desc(messages.createdAt))
    .limit(1);
  return row?.at;
}

/** The contact is at the main menu (no queue yet): assign, interpret the answer, or (re)send the menu. */
async function mainMenu(run: Run, answer: string): Promise<void> {
  const { connection, queues: list } = run;
  // One message, greeting first: two automatic messages could reach the phone out of order.
  if (list.length === 1) return enterQueue(run, list[0], connection.greetingMessage);
  const chosen = list[numberOf(answer) - 1];
  if (chosen) return enterQueue(run, chosen);

  let used = run.state.amountUsedBotQueues;
  if (used > 0 && connection.timeUseBotQueues > 0) {
    const last = await lastBotUse(run);
    if (!last || Date.now() - last.getTime() > connection.timeUseBotQueues * 60_000) used = 0;
  }
  // 0 means no limit; past the limit the ticket waits, pending, for a human.
  if (connection.maxUseBotQueues > 0 && used >= connection.maxUseBotQueues) {
    if (used !== run.state.amountUsedBotQueues) await update(run, { amountUsedBotQueues: used });
    return;
  }
  await update(run, { amountUsedBotQueues: used + 1 });
  await say(run, join(connection.greetingMessage, list.map((q, i) => menuLine(i + 1, q.name)).join('\n')));
}

/** A numbered list of options, with the way back and the way to the main menu. */
function optionsText(intro: string, options: QueueOption[], atRoot: boolean): string {
  const lines = options.map((o) => menuLine(o.option, o.title)).join('\n');
  const footer = atRoot ? MAIN_MENU_LINE : `${BACK_LINE}\n${MAIN_MENU_LINE}`;
  return join(intro, lines, footer);
}

async function queueGreeting(run: Run, queueId: number): Promise<string> {
  const known = (await run.ctx.companyQueues(run.state.companyId)).get(queueId);
  if (known) return known.greetingMessage;
  const [row] = await run.deps.db
    .select({ greetingMessage: queues.greetingMessage })
    .from(queues)
    .where(eq(queues.id, queueId));
  return row?.greetingMessage ?? '';
}

/** The queue is chosen: its agents see the ticket; its options (if any) start the chatbot. */
async function enterQueue(run: Run, queue: QueueRef, intro = ''): Promise<void> {
  const tree = await run.ctx.optionTree(run.state.whatsappId, queue.id);
  await update(run, { queueId: queue.id, queueOptionId: null, chatbot: tree.length > 0, amountUsedBotQueues: 0 });
  const greeting = await queueGreeting(run, queue.id);
  await say(run, join(intro, tree.length ? optionsText(greeting, tree, true) : greeting));
}

/** The path from the first level to the option `id` (empty at the first level or when it is gone). */
function pathTo(options: QueueOption[], id: number | null): QueueOption[] {
  if (id === null) return [];
  for (const o of options) {
    if (o.id === id) return [o];
    const below = pathTo(o.children ?? [], id);
    if (below.length) return [o, ...below];
  }
  return [];
}

/** Shows a level of the tree: the option's message and children, or the queue's greeting and first level. */
async function showLevel(run: Run, tree: QueueOption[], node: QueueOption | undefined): Promise<void> {
  if (!node) {
    await say(run, optionsText(await queueGreeting(run, run.state.queueId as number), tree, true));
    return;
  }
  await say(run, optionsText(node.message, node.children ?? [], false));
}

/** The contact walks the queue's options tree. */
async function optionsBot(run: Run, answer: string): Promise<void> {
  const queueId = run.state.queueId as number;
  const tree = await run.ctx.optionTree(run.state.whatsappId, queueId);
  if (answer === '#') {
    await update(run, { queueId: null, queueOptionId: null, chatbot: false, amountUsedBotQueues: 0 });
    return mainMenu(run, '');
  }
  if (tree.length === 0) {
    await update(run, { chatbot: false, queueOptionId: null });
    return;
  }
  const path = pathTo(tree, run.state.queueOptionId);
  const current = path.at(-1);
  if (answer === '0') {
    // One level up, skipping the options that were followed automatically (a single child).
    let i = path.length - 2;
    while (i >= 0 && (path[i].children?.length ?? 0) === 1) i--;
    const parent = i >= 0 ? path[i] : undefined;
    await update(run, { queueOptionId: parent?.id ?? null });
    return showLevel(run, tree, parent);
  }
  const siblings = current ? (current.children ?? []) : tree;
  let chosen = siblings.find((o) => o.option === numberOf(answer));
  if (!chosen) return showLevel(run, tree, current);
  const texts: string[] = [];
  while (chosen.children?.length === 1) {
    texts.push(chosen.message);
    chosen = chosen.children[0];
  }
  const children = chosen.children ?? [];
  if (children.length) {
    await update(run, { queueOptionId: chosen.id });
    await say(run, join(...texts, optionsText(chosen.message, children, false)));
    return;
  }
  // A leaf: its message ends the bot; the ticket waits in the queue for an agent.
  await update(run, { queueOptionId: chosen.id, chatbot: false });
  await say(run, join(...texts, chosen.message));
}

/**
 * Runs after an inbound message is stored (DOMAIN §1.7, §2): only for the contact's own messages on
 * a ticket with no user that is not a group, and only when the connection has queues.
 */
export async function runQueueMenu(
  deps: AutomationDeps,
  stored: StoredInbound,
  ctx: InboundContext = inboundContext(deps, stored),
): Promise<void> {
  if (stored.fromMe) return;
  const ticket = await ctx.ticket(stored);
  const state: BotState | undefined = ticket && pick(ticket);
  if (!state || state.userId !== null || state.isGroup || state.status === 'closed') return;
  if (state.queueId !== null && !state.chatbot) return;
  const connection = await ctx.connection(stored.companyId, stored.whatsappId);
  const list = await ctx.connectionQueues(connection.id);
  // No queues, no menu: the connection's greeting opens each new conversation instead (DOMAIN §1.7).
  if (list.length === 0 && !stored.ticketOpened) return;
  const answer = ((await ctx.body(stored)) ?? '').trim();
  const run: Run = {
    deps,
    ctx,
    stored,
    state,
    connection,
    queues: list,
    timeZone: await ctx.setting(stored.companyId, 'timezone'),
  };
  if (list.length === 0) await say(run, connection.greetingMessage);
  else if (state.queueId === null) await mainMenu(run, answer);
  else await optionsBot(run, answer);
  await save(run);
}
