import { type Message, mediaTypeOf, type Ticket } from '@balcao/shared';
import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import { type BotChange, type QueuedOutbound, queueOutboundMany } from '../modules/messages/messages.service.js';
import type { Jobs } from '../platform/jobs/jobs.js';
import type { Realtime } from '../platform/realtime/realtime.js';

export interface AutomationDeps {
  db: Db;
  realtime: Realtime;
  jobs: Jobs;
  log: Logger;
  /** The automations' clock (business hours); `new Date()` when absent. Injected by tests. */
  now?: () => Date;
}

/** A ticket as the automations see it: the API view plus its company. */
export type AutomationTicket = Ticket & { companyId: number };

/** A file already in the company's storage, sent with an automatic message. */
export interface AutomaticMedia {
  key: string;
  fileName: string;
  mimetype: string;
}

/**
 * An automatic message from the server itself: stored as pending (fromMe, isAutomatic), shown
 * as the ticket's last message, announced, and delivered by the same send job as agent messages.
 * `ticketChange` is written to the ticket by the same statement. The automatic messages asked for
 * in the same turn of the event loop (the automations of a batch's tickets run side by side) are
 * stored by one statement.
 */
export function sendAutomatic(
  deps: Pick<AutomationDeps, 'db' | 'realtime' | 'jobs'>,
  ticket: AutomationTicket,
  body: string,
  media?: AutomaticMedia,
  ticketChange?: BotChange,
): Promise<Message> {
  const value = {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    whatsappId: ticket.whatsappId,
    contactId: ticket.contactId,
    body,
    ...(media
      ? {
          mediaType: mediaTypeOf(media.mimetype),
          mediaKey: media.key,
          mediaName: media.fileName,
          mediaMime: media.mimetype,
        }
      : { mediaType: 'chat' as const }),
    fromMe: true,
    read: true,
    isAutomatic: true,
    sendStatus: 'pending' as const,
  };
  return new Promise((resolve, reject) => {
    if (waiting.length === 0) process.nextTick(storeWaiting);
    waiting.push({
      deps,
      companyId: ticket.companyId,
      item: { ticket, value, lastMessage: body || media?.fileName || '', ticketChange },
      resolve,
      reject,
    });
  });
}

type OutboundDeps = Pick<AutomationDeps, 'db' | 'realtime' | 'jobs'>;
interface Waiting {
  deps: OutboundDeps;
  companyId: number;
  item: QueuedOutbound;
  resolve: (m: Message) => void;
  reject: (e: unknown) => void;
}
let waiting: Waiting[] = [];

const sameTarget = (a: Waiting, b: Waiting) =>
  a.deps.db === b.deps.db &&
  a.deps.realtime === b.deps.realtime &&
  a.deps.jobs === b.deps.jobs &&
  a.companyId === b.companyId;

function storeWaiting() {
  const asked = waiting;
  waiting = [];
  const groups: Waiting[][] = [];
  for (const w of asked) {
    const group = groups.find((g) => sameTarget(g[0], w));
    if (group) group.push(w);
    else groups.push([w]);
  }
  for (const group of groups) void storeGroup(group);
}

/** A ticket's messages keep their order: its second message waits for the statement of its first. */
async function storeGroup(group: Waiting[]) {
  let rest = group;
  while (rest.length) {
    const round: Waiting[] = [];
    const later: Waiting[] = [];
    const tickets = new Set<number>();
    for (const w of rest) {
      if (tickets.has(w.item.ticket.id)) later.push(w);
      else {
        tickets.add(w.item.ticket.id);
        round.push(w);
      }
    }
    const { deps, companyId } = round[0];
    const outcomes = await queueOutboundMany(
      deps,
      companyId,
      round.map((w) => w.item),
    );
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') round[i].resolve(outcome.value);
      else round[i].reject(outcome.reason);
    });
    rest = later;
  }
}
