import { and, desc, eq, gte } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import type { StoredInbound } from '../inbound/handle-inbound.js';
import { messages } from '../modules/messages/messages.schema.js';
import { emitMessage, viewMessage } from '../modules/messages/messages.view.js';
import { type AssistantPrompt, promptForAssistant, type SecretKey } from '../modules/prompts/prompts.service.js';
import {
  claimTurn,
  markAnswered,
  markHandedOff,
  openSession,
  type PromptSession,
  releaseTurn,
} from '../modules/prompts/prompts.sessions.js';
import { listQueues } from '../modules/queues/queues.service.js';
import { selectTicket } from '../modules/tickets/tickets.view.js';
import type { Jobs } from '../platform/jobs/jobs.js';
import {
  type ChatMessage,
  type ChatTool,
  createOpenAiClient,
  type OpenAiClient,
  OpenAiError,
} from '../platform/openai.js';
import type { Realtime } from '../platform/realtime/realtime.js';
import { readStored } from '../platform/storage/read-stored.js';
import type { Storage } from '../platform/storage/storage.js';
import {
  agentTookOver,
  anyBot,
  type BotTicket,
  botIn,
  botOf,
  botTicket,
  type Cycle,
  currentCycle,
  inBotHands,
  moveToQueue,
  planAllows,
} from './bot-ticket.js';
import { type InboundContext, inboundContext } from './context.js';
import type { AutomationDeps } from './send-automatic.js';
import { sendAutomatic } from './send-automatic.js';

/**
 * The AI assistant of DOMAIN §16. An inbound message on a ticket a prompt answers (§1.7) only
 * schedules a turn: one durable job per ticket (pg-boss `short` policy, keyed by ticket), started a
 * burst window later, so that messages sent in a burst are answered once. The turn reads the
 * cycle's newest messages, asks OpenAI, and answers, transfers or hands off.
 */

export const AI_PROMPT_QUEUE = 'ai-prompt-turn';

/** The answer when OpenAI fails for good; the ticket then waits for people. */
export const FALLBACK_TEXT =
  'Desculpe, não consegui responder agora. Um atendente vai continuar o seu atendimento em instantes.';
/** The answer of a handoff the model did not word itself. */
export const HANDOFF_TEXT = 'Certo! Um atendente vai continuar o seu atendimento em instantes.';
const transferText = (queue: string) => `Certo! Vou transferir você para o setor *${queue}*.`;

/** At most this many characters of conversation go to the model, newest first. */
export const CONTEXT_CHAR_BUDGET = 12_000;
/** A turn longer than this is taken for dead (its instance crashed): the ticket is free again. */
const TURN_LEASE_MS = 3 * 60_000;
/** Turns of different tickets run side by side on an instance: OpenAI may take seconds to answer. */
const TURN_CONCURRENCY = 4;
/** A turn that finds another in progress comes back this much later. */
const BUSY_RETRY_MS = 2000;

type TurnJob = { companyId: number; ticketId: number };
const singletonKey = (ticketId: number) => `ai-prompt:${ticketId}`;

/** The automations' deps, with the burst window runtime.ts passes along. */
export type AiPromptStepDeps = AutomationDeps & { aiBurstMs?: number };

type TicketState = BotTicket;

/** DOMAIN §1.7: the connection's prompt while the ticket has no queue, then its queue's prompt. */

const peopleTookOver = (cycle: Cycle, session: PromptSession) => agentTookOver(cycle) || session.handedOffAt !== null;

/**
 * The inbound step (DOMAIN §1.7): on a ticket a prompt answers, schedule the ticket's turn and stop
 * the automations after it (menu, chatbot). After a handoff, or once an agent accepted or answered,
 * the assistant and the bots stay silent.
 */
export async function runAiPrompt(
  deps: AiPromptStepDeps,
  stored: StoredInbound,
  ctx: InboundContext = inboundContext(deps, stored),
): Promise<'handled' | 'continue'> {
  if (stored.fromMe) return 'continue';
  // No prompt on the connection nor on any queue of the company: no ticket can have one.
  if (!(await anyBot(ctx, stored, 'promptId'))) return 'continue';
  const ticket = await ctx.ticket(stored);
  if (!inBotHands(ticket)) return 'continue';
  const promptId = await botIn(ctx, ticket, 'promptId');
  if (promptId === null || !(await ctx.planAllows(ticket.companyId, 'useOpenAi'))) return 'continue';
  const cycle = await currentCycle(deps.db, ticket.id);
  const session = await openSession(deps.db, {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    cycleId: cycle.id,
    messageId: stored.messageId,
  });
  if (peopleTookOver(cycle, session)) return 'handled';
  await deps.jobs.send<TurnJob>(
    AI_PROMPT_QUEUE,
    { companyId: ticket.companyId, ticketId: ticket.id },
    { singletonKey: singletonKey(ticket.id), startAfter: new Date(Date.now() + (deps.aiBurstMs ?? 0)), retryLimit: 1 },
  );
  return 'handled';
}

export interface AssistantDeps {
  db: Db;
  realtime: Realtime;
  jobs: Jobs;
  storage: Storage;
  log: Logger;
  /** The key of the prompts' secrets. */
  key: SecretKey;
  openAi: { baseUrl: string; timeoutMs: number; retryDelayMs?: number };
}

type ContextRow = Pick<
  typeof messages.$inferSelect,
  'id' | 'body' | 'fromMe' | 'mediaType' | 'mediaKey' | 'mediaName' | 'mediaMime' | 'transcript' | 'isAutomatic'
>;

/** The cycle's newest messages, newest first, at most `limit`; internal notes live elsewhere and never come. */
async function recentMessages(db: Db, session: PromptSession, limit: number): Promise<ContextRow[]> {
  return db
    .select({
      id: messages.id,
      body: messages.body,
      fromMe: messages.fromMe,
      mediaType: messages.mediaType,
      mediaKey: messages.mediaKey,
      mediaName: messages.mediaName,
      mediaMime: messages.mediaMime,
      transcript: messages.transcript,
      isAutomatic: messages.isAutomatic,
    })
    .from(messages)
    .where(
      and(
        eq(messages.ticketId, session.ticketId),
        gte(messages.id, session.sinceMessageId),
        eq(messages.isDeleted, false),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(limit);
}

/** Voice notes of the contact get their transcript, stored on the message and shown to the agents. */
async function transcribeVoiceNotes(
  deps: AssistantDeps,
  client: OpenAiClient,
  ticket: TicketState,
  rows: ContextRow[],
): Promise<void> {
  for (const row of rows) {
    if (row.fromMe || row.mediaType !== 'audio' || row.transcript !== null || !row.mediaKey) continue;
    try {
      const data = await readStored(deps.storage, row.mediaKey);
      const text = await client.transcribe({
        data,
        fileName: row.mediaName ?? 'audio.ogg',
        mimetype: row.mediaMime ?? 'audio/ogg',
      });
      row.transcript = text;
      await deps.db.update(messages).set({ transcript: text }).where(eq(messages.id, row.id));
      const view = await viewMessage(deps.db, row.id);
      if (view) emitMessage(deps.realtime, ticket.companyId, ticket, 'update', view);
    } catch (err) {
      deps.log.warn({ err, messageId: row.id }, 'voice note not transcribed');
    }
  }
}

/** What a message says to the model. */
function textOf(row: ContextRow): string {
  if (row.mediaType === 'audio') return row.transcript ? row.transcript : '[áudio]';
  const body = row.body.trim();
  if (row.mediaType === 'chat') return body;
  return body ? `[${row.mediaType}] ${body}` : `[${row.mediaType}]`;
}

/** Newest first within the budget (the newest always, cut to fit), then in conversation order. */
export function conversation(rows: ContextRow[], budget = CONTEXT_CHAR_BUDGET): ChatMessage[] {
  const picked: ChatMessage[] = [];
  let left = budget;
  for (const row of rows) {
    const text = textOf(row);
    if (!text) continue;
    if (text.length > left) {
      if (picked.length === 0) picked.push({ role: 'user', content: text.slice(-left) });
      break;
    }
    left -= text.length;
    picked.push({ role: row.fromMe ? 'assistant' : 'user', content: text });
  }
  return picked.reverse();
}

function systemPrompt(prompt: AssistantPrompt, contactName: string, queueList: { id: number; name: string }[]) {
  const lines = [
    prompt.prompt.trim(),
    '',
    `Você atende pelo WhatsApp o contato "${contactName}". Responda em mensagens curtas, em texto simples.`,
    'Se o contato pedir para falar com uma pessoa, ou se você não puder ajudar, chame handoff_to_human.',
  ];
  if (queueList.length) {
    lines.push(
      'Se o assunto for de um setor específico, chame transfer_to_queue com o id do setor:',
      ...queueList.map((q) => `- ${q.id}: ${q.name}`),
    );
  }
  return lines.join('\n');
}

function toolsFor(queueList: { id: number; name: string }[]): ChatTool[] {
  const tools: ChatTool[] = [
    {
      type: 'function',
      function: {
        name: 'handoff_to_human',
        description: 'Passa o atendimento para um atendente humano; depois disso você não responde mais.',
        parameters: {
          type: 'object',
          properties: { reason: { type: 'string', description: 'Por que o contato precisa de uma pessoa.' } },
          required: ['reason'],
          additionalProperties: false,
        },
      },
    },
  ];
  if (queueList.length) {
    tools.push({
      type: 'function',
      function: {
        name: 'transfer_to_queue',
        description: 'Transfere o atendimento para outro setor (fila) da empresa.',
        parameters: {
          type: 'object',
          properties: { queueId: { type: 'integer', enum: queueList.map((q) => q.id) } },
          required: ['queueId'],
          additionalProperties: false,
        },
      },
    });
  }
  return tools;
}

const parseArgs = (text: string): Record<string, unknown> => {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
};

async function say(deps: AssistantDeps, ticket: TicketState, text: string): Promise<void> {
  if (!text.trim()) return;
  const view = await selectTicket(deps.db, ticket.companyId, ticket.id);
  if (view) await sendAutomatic(deps, { ...view, companyId: ticket.companyId }, text.trim());
}

/** Hands the ticket to people: silent from now on, in the prompt's queue (its "setor"). */
async function handOff(deps: AssistantDeps, ticket: TicketState, prompt: AssistantPrompt | null, reason: string) {
  await markHandedOff(deps.db, ticket.id, reason);
  const queueIds = new Set((await listQueues(deps.db, ticket.companyId)).map((q) => q.id));
  if (prompt?.queueId && queueIds.has(prompt.queueId)) await moveToQueue(deps, ticket, prompt.queueId);
}

/** One AI turn on a ticket the turn holds. */
async function turn(deps: AssistantDeps, session: PromptSession): Promise<void> {
  const ticket = await botTicket(deps.db, session.companyId, session.ticketId);
  if (!inBotHands(ticket)) return;
  const promptId = await botOf(deps.db, ticket, 'promptId');
  if (promptId === null || !(await planAllows(deps.db, ticket.companyId, 'useOpenAi'))) return;
  const cycle = await currentCycle(deps.db, ticket.id);
  if (cycle.id !== session.cycleId || peopleTookOver(cycle, session)) return;
  const prompt = await promptForAssistant(deps.db, deps.key, ticket.companyId, promptId);
  if (!prompt) return;

  const rows = await recentMessages(deps.db, session, prompt.maxMessages);
  const newest = rows.find((r) => !r.fromMe);
  if (!newest || newest.id <= session.answeredUpTo) return;

  const client = createOpenAiClient({ ...deps.openAi, apiKey: prompt.apiKey });
  const queueList = (await listQueues(deps.db, ticket.companyId)).map((q) => ({ id: q.id, name: q.name }));
  try {
    if (!prompt.apiKey) throw new OpenAiError('the key cannot be read (ENCRYPTION_KEY changed?)');
    await transcribeVoiceNotes(deps, client, ticket, rows);
    const view = await selectTicket(deps.db, ticket.companyId, ticket.id);
    const answer = await client.chat({
      model: prompt.model,
      messages: [
        {
          role: 'system',
          content: systemPrompt(prompt, (view?.contact.name ?? '').replace(/\s+/g, ' ').slice(0, 80), queueList),
        },
        ...conversation(rows),
      ],
      tools: toolsFor(queueList),
      maxTokens: prompt.maxTokens,
      temperature: prompt.temperature,
    });
    // An agent may have taken the ticket while the model thought: the answer is dropped.
    const now = await botTicket(deps.db, ticket.companyId, ticket.id);
    if (!inBotHands(now) || peopleTookOver(await currentCycle(deps.db, ticket.id), session)) return;
    Object.assign(ticket, now);

    let text = answer.content;
    for (const call of answer.toolCalls) {
      const args = parseArgs(call.arguments);
      if (call.name === 'transfer_to_queue') {
        const target = queueList.find((q) => q.id === Number(args.queueId));
        if (!target) {
          deps.log.warn({ ticketId: ticket.id, args: call.arguments }, 'AI asked for an unknown queue');
          continue;
        }
        await moveToQueue(deps, ticket, target.id);
        if (!text.trim()) text = transferText(target.name);
      } else if (call.name === 'handoff_to_human') {
        await handOff(deps, ticket, prompt, typeof args.reason === 'string' ? args.reason : 'handoff');
        if (!text.trim()) text = HANDOFF_TEXT;
        break;
      }
    }
    await say(deps, ticket, text);
  } catch (err) {
    if (!(err instanceof OpenAiError)) throw err;
    deps.log.warn({ ticketId: ticket.id, promptId: prompt.id, err: err.message }, 'AI turn failed: handed off');
    await say(deps, ticket, FALLBACK_TEXT);
    await handOff(deps, ticket, prompt, `error: ${err.message}`);
  } finally {
    await markAnswered(deps.db, ticket.id, newest.id);
  }
}

/** Runs a turn if the ticket is free; otherwise comes back shortly (one turn at a time per ticket). */
export async function runAiTurn(deps: AssistantDeps, job: TurnJob): Promise<void> {
  const claimed = await claimTurn(deps.db, job.companyId, job.ticketId, TURN_LEASE_MS);
  if (claimed === 'missing') return;
  if (claimed === 'busy') {
    await deps.jobs.send<TurnJob>(AI_PROMPT_QUEUE, job, {
      singletonKey: singletonKey(job.ticketId),
      startAfter: new Date(Date.now() + BUSY_RETRY_MS),
      retryLimit: 1,
    });
    return;
  }
  try {
    await turn(deps, claimed);
  } finally {
    await releaseTurn(deps.db, job.ticketId);
  }
}

/** The worker of the turns (runtime.ts). */
export async function registerAiPrompt(deps: AssistantDeps): Promise<void> {
  await deps.jobs.work<TurnJob>(AI_PROMPT_QUEUE, (job) => runAiTurn(deps, job), {
    policy: 'short',
    concurrency: TURN_CONCURRENCY,
  });
}
