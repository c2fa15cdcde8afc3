import path from 'node:path';
import type { Logger } from 'pino';
import { registerAiPrompt } from './automations/ai-prompt.js';
import { handleCall } from './automations/calls.js';
import { registerTicketExpiry } from './automations/expiry.js';
import { prepareInboundAutomations, runInboundAutomations } from './automations/index.js';
import { registerIntegrations } from './automations/integration.js';
import { registerSendToQueue } from './automations/send-to-queue.js';
import type { BaileysOptions } from './channels/baileys/baileys.channel.js';
import type { ChannelEvents, ChannelStore } from './channels/channel.js';
import { type ChannelManager, createChannelManager } from './channels/manager.js';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import { afterInboundBatch } from './inbound/after-batch.js';
import { createInboundPipeline } from './inbound/handle-inbound.js';
import { handleRevision } from './inbound/handle-revision.js';
import { registerSessionJobs } from './modules/auth/auth.jobs.js';
import { registerBillingJobs } from './modules/billing/billing.jobs.js';
import { registerCampaignJobs } from './modules/campaigns/campaigns.jobs.js';
import { type Clock, resumeConnection } from './modules/campaigns/campaigns.lifecycle.js';
import { applyShippingAck } from './modules/campaigns/campaigns.replies.js';
import { registerContactJobs } from './modules/contact-lists/contact-lists.jobs.js';
import { recheckUnchecked } from './modules/contact-lists/contact-lists.service.js';
import { createContactPictures } from './modules/contacts/contacts.pictures.js';
import { botOptionsOf } from './modules/integrations/integrations.probe.js';
import { createOutbox, type OutboxPolicy, SEND_QUEUE } from './modules/messages/messages.outbox.js';
import { applyAck, messageByProviderId, resendFailedWhileDown } from './modules/messages/messages.service.js';
import { registerScheduleJobs, type SchedulePolicy } from './modules/schedules/schedules.sender.js';
import {
  applyConnectionUpdate,
  connectionById,
  connectionsToRestore,
  setConnectionSession,
  whatsappRow,
} from './modules/whatsapp/whatsapp.service.js';
import type { AppDeps } from './platform/http/types.js';
import type { Jobs } from './platform/jobs/jobs.js';
import type { Realtime } from './platform/realtime/realtime.js';
import { encryptionKeyOf } from './platform/secrets.js';
import { s3StorageOf } from './platform/storage/s3.js';
import { diskStorage, type Storage } from './platform/storage/storage.js';

/** The modules' rows as the channels see them. */
export function channelStoreOf(db: Db): ChannelStore {
  return {
    connection: (companyId, id) => whatsappRow(db, companyId, id),
    connectionById: (id) => connectionById(db, id),
    setSession: (companyId, id, session) => setConnectionSession(db, companyId, id, session),
    messageByProviderId: (companyId, whatsappId, providerId) =>
      messageByProviderId(db, companyId, whatsappId, providerId),
  };
}

/** Storage, channels and the channel events that feed the inbound pipeline: shared by main, tests and bench. */
export function createMessaging(opts: {
  config: Config;
  database: Database;
  realtime: Realtime;
  log: Logger;
  storage?: Storage;
  /** The send job of automatic messages; without it the inbound automations do not run. */
  jobs?: Jobs;
  /** The automations' clock (business hours); tests inject one. */
  now?: () => Date;
  /** Baileys (provider `beta`) settings; by default on, except under NODE_ENV=test (no real WhatsApp there). */
  beta?: BaileysOptions;
}) {
  const db = opts.database.db;
  const storage = opts.storage ?? s3StorageOf(opts.config) ?? diskStorage(path.resolve(opts.config.DATA_DIR, 'media'));
  const jobs = opts.jobs;
  const automation = jobs
    ? { db, realtime: opts.realtime, jobs, log: opts.log, now: opts.now, aiBurstMs: opts.config.AI_BURST_MS }
    : undefined;
  const inbound = createInboundPipeline({
    db,
    realtime: opts.realtime,
    storage,
    log: opts.log,
    afterStore: automation && ((stored) => runInboundAutomations(automation, stored)),
    afterBatch: (received) => {
      if (automation)
        prepareInboundAutomations(
          automation,
          received.map((r) => r.stored),
        );
      return afterInboundBatch({ db, realtime: opts.realtime, jobs, log: opts.log }, received);
    },
  });
  const pictures = createContactPictures({ db, realtime: opts.realtime, storage, log: opts.log });
  const events: ChannelEvents = {
    inbound: async (m) => {
      const stored = await inbound(m);
      if (m.picture && 'refreshProfile' in stored && stored.refreshProfile)
        pictures.offer(stored.companyId, stored.contactId, m.picture);
    },
    ack: async (a) => {
      await applyAck(db, opts.realtime, a);
      await applyShippingAck({ db, realtime: opts.realtime }, a);
    },
    connection: async (u) => {
      await applyConnectionUpdate(db, opts.realtime, u);
      // What failed while the connection was down leaves as soon as it is back.
      if (u.status === 'CONNECTED' && jobs) {
        await resendFailedWhileDown({ db, realtime: opts.realtime, jobs }, u.companyId, u.whatsappId);
        await resumeConnection(jobs, db, u.whatsappId);
        await recheckUnchecked({ db, jobs }, u.companyId);
      }
    },
    call: async (c) => {
      opts.log.info({ whatsappId: c.whatsappId }, 'incoming call');
      // Like the inbound automations: the call log and the "calls disabled" answer need the send job.
      if (automation) await handleCall({ ...automation, storage, channelOf: (id) => channels.get(id) }, c);
    },
    revision: async (r) => {
      await handleRevision({ db, realtime: opts.realtime }, r);
    },
  };
  const channels: ChannelManager = createChannelManager(
    { db, storage, events, store: channelStoreOf(db), log: opts.log },
    {
      sandboxEnabled: opts.config.sandboxEnabled,
      cloud: { graphUrl: opts.config.CLOUD_GRAPH_URL, key: encryptionKeyOf(opts.config) },
      beta: opts.beta ?? (opts.config.NODE_ENV === 'test' ? undefined : {}),
      // Session commands reach the instance that holds a connection's socket.
      instances: opts.realtime,
    },
  );
  return { storage, channels, events };
}

export interface Workers {
  /**
   * Sends what was left unsent (messages, then campaigns due or cut off while the server was down),
   * then sweeps periodically: call once the connections are restored.
   */
  startOutbox(): void;
  stop(): Promise<void>;
}

/** The durable workers of this instance. */
export async function startWorkers(
  deps: AppDeps & { jobs: Jobs },
  log: Logger,
  opts: { outbox?: OutboxPolicy; schedules?: SchedulePolicy; campaignClock?: Clock; campaignLeaseMs?: number } = {},
): Promise<Workers> {
  const db = deps.database.db;
  const outbox = createOutbox({ ...deps, db, log }, opts.outbox);
  await deps.jobs.work<{ ticketId?: number }>(SEND_QUEUE, async (job) => {
    if (job.ticketId) await outbox.deliver(job.ticketId);
  });
  await registerSessionJobs({ db, realtime: deps.realtime }, deps.jobs);
  await registerTicketExpiry({ db, realtime: deps.realtime, jobs: deps.jobs }, deps.jobs);
  await registerSendToQueue({ db, realtime: deps.realtime }, deps.jobs);
  await registerAiPrompt({
    db,
    realtime: deps.realtime,
    jobs: deps.jobs,
    storage: deps.storage,
    log,
    key: encryptionKeyOf(deps.config),
    openAi: { baseUrl: deps.config.OPENAI_BASE_URL, timeoutMs: deps.config.OPENAI_TIMEOUT_MS },
  });
  await registerIntegrations({
    db,
    realtime: deps.realtime,
    jobs: deps.jobs,
    storage: deps.storage,
    log,
    key: encryptionKeyOf(deps.config),
    bots: botOptionsOf(deps.config),
  });
  await registerBillingJobs({ db, realtime: deps.realtime, config: deps.config, log }, deps.jobs);
  await registerContactJobs(deps, log);
  await registerScheduleJobs({ ...deps, db, log }, deps.jobs, opts.schedules);
  const tickCampaigns = await registerCampaignJobs(
    { ...deps, db, log, clock: opts.campaignClock, leaseMs: opts.campaignLeaseMs },
    deps.jobs,
  );
  return {
    startOutbox: () => {
      outbox.start();
      tickCampaigns().catch((err) => log.error({ err }, 'campaign start-up tick failed'));
    },
    stop: () => outbox.stop(),
  };
}

/** Brings back the connections that were up when the server stopped, except those another instance holds. */
export async function restoreConnections(deps: Pick<AppDeps, 'database' | 'channels'>, log: Logger): Promise<void> {
  for (const c of await connectionsToRestore(deps.database.db)) {
    await deps.channels
      .restore(c.companyId, c.id)
      .catch((err) => log.warn({ err, whatsappId: c.id }, 'connection not restored'));
  }
}
