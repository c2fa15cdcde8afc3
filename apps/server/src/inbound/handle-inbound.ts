import type { Logger } from 'pino';
import type { InboundMessage } from '../channels/channel.js';
import type { Db } from '../db/client.js';
import { getSetting } from '../modules/settings/settings.service.js';
import type { Realtime } from '../platform/realtime/realtime.js';
import { sequencer } from '../platform/sequencer/sequencer.js';
import type { Storage, StoredFile } from '../platform/storage/storage.js';
import { fileNameOf, mimetypeOf, withoutNul } from '../platform/untrusted-text.js';
import { createBatcher } from './batcher.js';
import { recordBatch } from './inbound-batch.js';
import { saveMedia, withoutFile } from './save-media.js';
import {
  type InboundResult,
  type PreparedInbound,
  type StoredInbound,
  storedIds,
  storeInbound,
} from './store-inbound.js';

export type { InboundResult, StoredInbound } from './store-inbound.js';

export interface InboundDeps {
  db: Db;
  realtime: Realtime;
  storage: Storage;
  log: Logger;
  /** Runs after the message is stored and announced (queue menu, bots: DOMAIN §1.7). */
  afterStore?: (result: StoredInbound) => Promise<void>;
  /**
   * Runs once per stored batch, before the automations of its messages: what reads or changes
   * rows for the whole batch at once (cancel-if-replied, campaign replies). Never retried. The
   * connection's batches run it in order, while the next batch is being stored.
   */
  afterBatch?: (received: ReceivedInbound[]) => Promise<void>;
}

/** A stored message beside what the connection sent. */
export interface ReceivedInbound {
  stored: StoredInbound;
  message: InboundMessage;
}

/** `ready`: the batch is announced and its batch work done, so the message's automations may run. */
type Stored = { result: InboundResult; ready: Promise<void> };

const connectionKey = (m: InboundMessage) => `${m.companyId}:${m.whatsappId}`;

/**
 * What WhatsApp sends is stored, never refused: NUL (which PostgreSQL text cannot hold) is stripped
 * from every text, and the file's name and type are cut to fit their columns.
 */
function storable(received: InboundMessage): InboundMessage {
  const m = withoutNul(received);
  if (!m.media) return m;
  return {
    ...m,
    media: { ...m.media, fileName: fileNameOf(m.media.fileName), mimetype: mimetypeOf(m.media.mimetype) },
  };
}

/** At most this many messages of one connection share a transaction. */
export const INBOUND_BATCH = 64;

/**
 * The inbound pipeline of DOMAIN §1. Each connection's messages are stored in arrival order, in
 * batches that share one transaction while the connection is busy (store-inbound); then each
 * ticket's automations run one message after the other.
 */
export function createInboundPipeline(deps: InboundDeps) {
  const inArrivalOrder = sequencer();
  const inAnnounceOrder = sequencer();
  const inBatchWorkOrder = sequencer();
  const inTicketOrder = sequencer();
  const batcher = createBatcher(async (batch: PreparedInbound[]) => {
    const connection = connectionKey(batch[0].message);
    const { results, announced } = await storeInbound(deps, batch, (announce) => inAnnounceOrder(connection, announce));
    // The automations of these messages read what they share once for the batch (automations/context.ts).
    const received: ReceivedInbound[] = [];
    const bodies = new Map<number, string>();
    results.forEach((result, i) => {
      if ('skipped' in result) return;
      received.push({ stored: result, message: batch[i].message });
      bodies.set(result.messageId, batch[i].message.body);
    });
    recordBatch({ stored: received.map((r) => r.stored), bodies });
    // The batch is stored: a failure here is logged, never a reason to store it again. The store of
    // the connection's next batch does not wait for it (the store is what bounds a busy connection).
    const { afterBatch } = deps;
    const batchWork =
      afterBatch && received.length
        ? inBatchWorkOrder(connection, () =>
            afterBatch(received).catch((err) => deps.log.error({ err }, 'inbound batch work failed')),
          )
        : undefined;
    const ready = Promise.all([announced, batchWork]).then(() => undefined);
    return results.map((result) => ({ result, ready }));
  }, INBOUND_BATCH);

  /** Checks that need no transaction, then the file; `stored` is the message's place in its connection's queue. */
  async function prepare(
    m: InboundMessage,
  ): Promise<{ skipped: 'duplicate' | 'group' } | { media?: StoredFile; stored: Promise<Stored> }> {
    // A redelivered media message is caught before its file is written; the check in the transaction is the rule.
    if (m.media && (await storedIds(deps.db, m.companyId, m.whatsappId, [m.providerId])).size)
      return { skipped: 'duplicate' };
    if (m.isGroup && (await getSetting(deps.db, m.companyId, 'CheckMsgIsGroup')) === 'enabled')
      return { skipped: 'group' };
    const saved = m.media ? await saveMedia(deps, { ...m, media: m.media }) : undefined;
    const media = saved ?? undefined;
    // A file that could not be saved loses the file, never the message.
    const message = m.media && !saved ? withoutFile({ ...m, media: m.media }) : m;
    return { media, stored: batcher.push(connectionKey(m), { message, mediaKey: media?.key }) };
  }

  return async function handleInbound(received: InboundMessage): Promise<InboundResult> {
    const m = storable(received);
    // A message whose file is still being written keeps its place: the connection's next ones wait.
    const prepared = await inArrivalOrder(connectionKey(m), () => prepare(m));
    if ('skipped' in prepared) return prepared;
    const { media } = prepared;
    const { result, ready } = await prepared.stored.catch(async (err) => {
      if (media) await deps.storage.remove(media.key);
      throw err;
    });
    await ready;
    if ('skipped' in result) {
      if (media) await deps.storage.remove(media.key);
      return result;
    }
    const { afterStore } = deps;
    if (afterStore) {
      await inTicketOrder(`${result.companyId}:${result.ticketId}`, () =>
        afterStore(result).catch((err) =>
          deps.log.error({ err, ticketId: result.ticketId }, 'inbound automation failed'),
        ),
      );
    }
    return result;
  };
}

/** One message through a pipeline of its own: for the server's own entries (call logs), which run no automations. */
export function handleInbound(deps: InboundDeps, m: InboundMessage): Promise<InboundResult> {
  return createInboundPipeline(deps)(m);
}
