import type { Jobs } from '../../platform/jobs/jobs.js';
import { CAMPAIGN_SEND_QUEUE, CAMPAIGN_TICK_QUEUE, type CampaignDeps, tickCampaigns } from './campaigns.lifecycle.js';
import { runCampaignLoop } from './campaigns.sender.js';

/**
 * The connections' send loops and the starter (every minute in every instance; its statements are
 * conditional, so together they do each thing once). The first tick is the caller's, once the
 * connections are restored: what came due while the server was down starts then.
 */
export async function registerCampaignJobs(deps: Omit<CampaignDeps, 'jobs'>, jobs: Jobs): Promise<() => Promise<void>> {
  const full = { ...deps, jobs };
  await jobs.work<{ whatsappId?: number }>(
    CAMPAIGN_SEND_QUEUE,
    async (job) => {
      if (job.whatsappId) await runCampaignLoop(full, job.whatsappId);
    },
    { policy: 'short' },
  );
  await jobs.schedule(CAMPAIGN_TICK_QUEUE, '* * * * *', () => tickCampaigns(full));
  return () => tickCampaigns(full);
}
