import { type Message, mediaTypeOf, type Ticket } from '@balcao/shared';
import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import { queueOutbound } from '../modules/messages/messages.service.js';
import type { tickets } from '../modules/tickets/tickets.schema.js';
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
 * `ticketChange` is written to the ticket by the same statement.
 */
export async function sendAutomatic(
  deps: Pick<AutomationDeps, 'db' | 'realtime' | 'jobs'>,
  ticket: AutomationTicket,
  body: string,
  media?: AutomaticMedia,
  ticketChange?: Partial<typeof tickets.$inferInsert>,
): Promise<Message> {
  const [message] = await queueOutbound(
    deps,
    ticket.companyId,
    ticket,
    [
      {
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
        sendStatus: 'pending',
      },
    ],
    body || media?.fileName || '',
    ticketChange,
  );
  return message;
}
