import type { StoredInbound } from './store-inbound.js';

/**
 * The messages one transaction stored together (store-inbound), as the work that follows them sees
 * the batch: the inbound automations read what every message of the batch needs once (see
 * automations/context.ts) instead of once per message.
 */
export interface InboundBatch {
  /** The batch's stored messages, in batch order. */
  readonly stored: readonly StoredInbound[];
  /** Each stored message's body as it was stored, by message id. */
  readonly bodies: ReadonlyMap<number, string>;
}

/** Held only as long as a message's result is: no batch outlives the work on its messages. */
const batches = new WeakMap<StoredInbound, InboundBatch>();

/** Marks the results of one stored batch as belonging together. */
export function recordBatch(batch: InboundBatch): void {
  for (const s of batch.stored) batches.set(s, batch);
}

/** The batch a stored message came in, when it came through the pipeline. */
export function inboundBatchOf(stored: StoredInbound): InboundBatch | undefined {
  return batches.get(stored);
}
