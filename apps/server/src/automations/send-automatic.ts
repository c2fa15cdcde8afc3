import { type Message, mediaTypeOf, type Ticket } from '@balcao/shared';
import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import { type QueuedOutbound, queueOutboundMany } from '../modules/messages/messages.service.js';
import type { BotChange } from '../modules/tickets/tickets.bot-state.js';
import type { Jobs } from '../platform/jobs/jobs.js';
import type { Realtime } from '../platform/realtime/realtime.js';
import { sameTick } from '../platform/same-tick.js';

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
  return storeTogether(
    { deps, companyId: ticket.companyId },
    { ticket, value, lastMessage: body || media?.fileName || '', ticketChange },
  );
}

const storeTogether = sameTick<
  { deps: Pick<AutomationDeps, 'db' | 'realtime' | 'jobs'>; companyId: number },
  QueuedOutbound,
  Message
>({
  sameGroup: (a, b) =>
    a.deps.db === b.deps.db &&
    a.deps.realtime === b.deps.realtime &&
    a.deps.jobs === b.deps.jobs &&
    a.companyId === b.companyId,
  key: (item) => item.ticket.id,
  run: ({ deps, companyId }, items) => queueOutboundMany(deps, companyId, items),
});
