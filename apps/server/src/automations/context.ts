import {
  type EncryptedSettingKey,
  type PlanFlag,
  type QueueOption,
  type SettingKey,
  settingDefaults,
  type Ticket,
  type WeeklyScheduleEntry,
} from '@balcao/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { anyOfUnseen, statement } from '../db/named-statement.js';
import { type InboundBatch, inboundBatchOf } from '../inbound/inbound-batch.js';
import type { StoredInbound } from '../inbound/store-inbound.js';
import { messages } from '../modules/messages/messages.schema.js';
import { optionTree } from '../modules/queue-options/queue-options.service.js';
import type { QueueRef } from '../modules/queues/queues.service.js';
import { tickets } from '../modules/tickets/tickets.schema.js';
import { selectTicketsOf } from '../modules/tickets/tickets.view.js';
import { coalescedReads } from '../platform/coalesced-reads.js';
import { AppError } from '../platform/errors/app-error.js';
import { planAllows } from './bot-ticket.js';
import { type ConnectionRow, type InboundConfig, type QueueConfig, readInboundConfig } from './inbound-config.js';

/**
 * What the inbound automations read, read once for the messages stored together (one batch of a
 * connection, at most INBOUND_BATCH messages) instead of once per message and per step:
 *
 * - the company's configuration — settings, the connection (greeting, holiday, prompt,
 *   integration), its queues, the company's queues (hours, messages, prompt, integration), the
 *   company's hours and the connection's queue options, one statement (inbound-config.ts), and the
 *   plan — on first use, for the whole batch;
 * - the ticket, once per message for all of its steps, read again after a step changed it; the
 *   messages of the batch that want their ticket at the same moment share one query;
 * - the message's body, which the batch already holds.
 *
 * The context lives as long as the batch's messages do: it is no cache across batches, so a change
 * of configuration is seen by the next batch. A message that did not come through the pipeline gets
 * a context of its own.
 */
export interface InboundContext {
  setting(companyId: number, key: Exclude<SettingKey, EncryptedSettingKey>): Promise<string>;
  /** The connection's row, undefined when it is not the company's. */
  connectionRow(companyId: number, id: number): Promise<ConnectionRow | undefined>;
  /** The connection's row, as `whatsappRow` gives it (ERR_NO_WAPP_FOUND when missing). */
  connection(companyId: number, id: number): Promise<ConnectionRow>;
  /** The connection's queues, in menu order. */
  connectionQueues(whatsappId: number): Promise<QueueRef[]>;
  /** The company's queues by id, with what the automations read of them. */
  companyQueues(companyId: number): Promise<Map<number, QueueConfig>>;
  /** The company's weekly hours, undefined when the company is not found. */
  companySchedules(companyId: number): Promise<WeeklyScheduleEntry[] | undefined>;
  planAllows(companyId: number, flag: PlanFlag): Promise<boolean>;
  /** A queue's options tree; those of the connection's queues are read together. */
  optionTree(whatsappId: number, queueId: number): Promise<QueueOption[]>;
  /** The message's ticket as its steps see it (a copy each call). */
  ticket(stored: StoredInbound): Promise<TicketState | undefined>;
  /** A step changed the ticket: the next read of it goes to the database. */
  ticketChanged(stored: StoredInbound): void;
  /** The ticket in the API's shape, read now; the batch's reads of the same moment share one query. */
  ticketView(companyId: number, id: number): Promise<Ticket | undefined>;
  /** The message's body, undefined when the message is gone. */
  body(stored: StoredInbound): Promise<string | undefined>;
}

const ticketColumns = {
  id: tickets.id,
  companyId: tickets.companyId,
  whatsappId: tickets.whatsappId,
  contactId: tickets.contactId,
  userId: tickets.userId,
  queueId: tickets.queueId,
  queueOptionId: tickets.queueOptionId,
  chatbot: tickets.chatbot,
  amountUsedBotQueues: tickets.amountUsedBotQueues,
  isGroup: tickets.isGroup,
  status: tickets.status,
  awaitingRating: tickets.awaitingRating,
  outOfHoursNotifiedAt: tickets.outOfHoursNotifiedAt,
};
export type TicketState = Pick<typeof tickets.$inferSelect, keyof typeof ticketColumns>;

const ticketStates = statement('inbound_ticket_states', ['companyId', 'ids'], (db, p) =>
  db
    .select(ticketColumns)
    .from(tickets)
    .where(and(eq(tickets.companyId, p.companyId), anyOfUnseen(tickets.id, p.ids, 'int'))),
);

/** `home` is the connection whose messages the context serves (a batch is one connection's). */
function createContext(db: Db, home: StoredInbound, batch: InboundBatch | undefined): InboundContext {
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    let p = memo.get(key) as Promise<T> | undefined;
    if (!p) {
      const loading = load();
      memo.set(key, loading);
      // A read that failed is tried again by the next message, as it would have been without the batch.
      loading.catch(() => {
        if (memo.get(key) === loading) memo.delete(key);
      });
      p = loading;
    }
    return p;
  };

  // The tickets asked for in the same turn of the event loop are read together.
  const readTicket = coalescedReads((companyId, ids) => ticketStates(db, { companyId, ids }));
  const readView = coalescedReads((companyId, ids) => selectTicketsOf(db, companyId, ids));
  const ticketOf = new Map<number, Promise<TicketState | undefined>>();

  // Company-wide parts are read with the context's own connection, so that one statement serves all.
  const config = (companyId: number, whatsappId = home.whatsappId) =>
    once<InboundConfig>(`config:${companyId}:${whatsappId}`, () => readInboundConfig(db, companyId, whatsappId));
  const connectionRow = async (companyId: number, id: number) => (await config(companyId, id)).connection;
  // A batch's first step reads its messages' tickets and the next ones the configuration: read both at once.
  if (batch && !home.fromMe) config(home.companyId).catch(() => undefined);

  return {
    setting: async (companyId, key) => (await config(companyId)).settings.get(key) ?? settingDefaults[key],
    connectionRow,
    async connection(companyId, id) {
      const row = await connectionRow(companyId, id);
      if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
      return row;
    },
    connectionQueues: async (whatsappId) => (await config(home.companyId, whatsappId)).connectionQueues,
    companyQueues: async (companyId) => (await config(companyId)).companyQueues,
    companySchedules: async (companyId) => (await config(companyId)).companySchedules,
    planAllows: (companyId, flag) => once(`plan:${companyId}:${flag}`, () => planAllows(db, companyId, flag)),
    async optionTree(whatsappId, queueId) {
      const ofConnection = (await config(home.companyId, whatsappId)).options;
      return ofConnection.get(queueId) ?? once(`options:${queueId}`, () => optionTree(db, queueId));
    },
    async ticket(stored) {
      let read = ticketOf.get(stored.messageId);
      if (!read) {
        const reading = readTicket(stored.companyId, stored.ticketId);
        ticketOf.set(stored.messageId, reading);
        reading.catch(() => {
          if (ticketOf.get(stored.messageId) === reading) ticketOf.delete(stored.messageId);
        });
        read = reading;
      }
      const row = await read;
      return row && { ...row };
    },
    ticketChanged(stored) {
      ticketOf.delete(stored.messageId);
    },
    ticketView: (companyId, id) => readView(companyId, id),
    async body(stored) {
      const known = batch?.bodies.get(stored.messageId);
      if (known !== undefined) return known;
      const [message] = await db
        .select({ body: messages.body })
        .from(messages)
        .where(eq(messages.id, stored.messageId));
      return message?.body;
    },
  };
}

/** One context per batch (and per database handle); held only while the batch is. */
const contexts = new WeakMap<InboundBatch, { db: Db; context: InboundContext }>();

/** The context of the message's batch, or one of its own for a message that came another way. */
export function inboundContext(deps: { db: Db }, stored: StoredInbound): InboundContext {
  const batch = inboundBatchOf(stored);
  if (!batch) return createContext(deps.db, stored, undefined);
  const known = contexts.get(batch);
  if (known && known.db === deps.db) return known.context;
  const context = createContext(deps.db, stored, batch);
  contexts.set(batch, { db: deps.db, context });
  return context;
}
