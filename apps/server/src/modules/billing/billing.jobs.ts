import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Jobs } from '../../platform/jobs/jobs.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { lazyPaymentProvider } from './billing.provider.js';
import { reconcile } from './billing.service.js';
import { issueInvoices } from './invoices.service.js';

export const ISSUE_INVOICES_QUEUE = 'billing.issue-invoices';
export const RECONCILE_QUEUE = 'billing.reconcile';

/**
 * DOMAIN §18's timers: invoices are issued every hour (each company by its own calendar day, so the day
 * changes on time in every time zone; a run that finds the invoice issued does nothing), and open charges
 * are checked with the provider every 5 minutes in case a webhook was lost.
 */
export async function registerBillingJobs(
  deps: { db: Db; realtime: Realtime; config: Config; log: Logger },
  jobs: Jobs,
): Promise<void> {
  const provider = lazyPaymentProvider(deps.config, deps.db);
  await jobs.schedule(ISSUE_INVOICES_QUEUE, '0 * * * *', async () => {
    const issued = await issueInvoices(deps.db);
    if (issued) deps.log.info({ issued }, 'invoices issued');
  });
  await jobs.schedule(RECONCILE_QUEUE, '*/5 * * * *', async () => {
    await reconcile(deps, provider());
  });
}
