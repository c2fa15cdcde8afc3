import type { Db } from '../../db/client.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { announceCampaign } from './campaigns.service.js';

/** At most one progress push per campaign per this interval: a fast campaign must not flood the report. */
export const PROGRESS_INTERVAL_MS = 1_000;

interface Progress {
  /** A recipient of the campaign changed: its record is pushed within the interval. */
  touch(campaignId: number): void;
}

const perRealtime = new WeakMap<Realtime, Progress>();

/**
 * The throttled `company-{id}-campaign` updates of sends and acks. Pending pushes are the only
 * state: one timer per campaign with a change not yet pushed, gone once pushed.
 */
export function progressOf(deps: { db: Db; realtime: Realtime; log?: { warn(o: object, m: string): void } }): Progress {
  const known = perRealtime.get(deps.realtime);
  if (known) return known;
  const pending = new Set<number>();
  const progress: Progress = {
    touch(campaignId) {
      if (pending.has(campaignId)) return;
      pending.add(campaignId);
      setTimeout(() => {
        pending.delete(campaignId);
        announceCampaign(deps.db, deps.realtime, campaignId).catch((err) =>
          deps.log?.warn({ err, campaignId }, 'campaign progress push failed'),
        );
      }, PROGRESS_INTERVAL_MS).unref();
    },
  };
  perRealtime.set(deps.realtime, progress);
  return progress;
}
