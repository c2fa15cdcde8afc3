import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import { onCampaignReplies } from '../modules/campaigns/campaigns.replies.js';
import { cancelOnReply } from '../modules/schedules/schedules.sender.js';
import type { Jobs } from '../platform/jobs/jobs.js';
import type { Realtime } from '../platform/realtime/realtime.js';
import type { ReceivedInbound } from './handle-inbound.js';

/**
 * What a stored batch of one connection's messages changes beyond its tickets, read and written once
 * for the batch: the contacts' schedules that ask to be cancelled when they write (DOMAIN §7), and
 * the campaign recipients who answered, opted out or confirmed (DOMAIN §8). Each fails alone.
 */
export async function afterInboundBatch(
  deps: { db: Db; realtime: Realtime; jobs?: Jobs; log: Logger },
  received: ReceivedInbound[],
): Promise<void> {
  const { companyId } = received[0].stored;
  const writers = new Set(received.filter((r) => !r.message.fromMe).map((r) => r.stored.contactId));
  // Two tables, two statements side by side: the batch's automations wait for both.
  await Promise.all([
    cancelOnReply(deps.db, deps.realtime, companyId, [...writers]).catch((err) =>
      deps.log.error({ err }, 'schedule cancel-on-reply failed'),
    ),
    onCampaignReplies(
      deps,
      companyId,
      received.map((r) => r.message),
    ).catch((err) => deps.log.error({ err }, 'campaign reply failed')),
  ]);
}
