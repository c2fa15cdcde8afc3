import type { Campaign } from '@balcao/shared';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { ChannelManager } from '../../channels/manager.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Jobs } from '../../platform/jobs/jobs.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import type { Storage } from '../../platform/storage/storage.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { whatsapps } from '../whatsapp/whatsapp.schema.js';
import { campaignShippings, campaigns } from './campaigns.schema.js';
import { announceCampaign, campaignRow } from './campaigns.service.js';

/** The engine's clock and dice: tests inject both to measure pacing without waiting. */
export interface Clock {
  now(): Date;
  random(): number;
}
export const systemClock: Clock = { now: () => new Date(), random: Math.random };

export interface CampaignDeps {
  db: Db;
  realtime: Realtime;
  channels: ChannelManager;
  storage: Storage;
  log: Logger;
  jobs: Jobs;
  clock?: Clock;
  /** How old a `sending` claim must be to belong to a sender that died (SENDING_LEASE_MS by default). */
  leaseMs?: number;
}

/** One send loop per connection (DOMAIN §8): a queue allowing one waiting job per connection. */
export const CAMPAIGN_SEND_QUEUE = 'campaigns.send';
export const CAMPAIGN_TICK_QUEUE = 'campaigns.tick';
const loopKey = (whatsappId: number) => `campaign-connection:${whatsappId}`;

/** A PROGRAMADA campaign later than this is not started any more (DOMAIN §8). */
export const MAX_START_LATE_MS = 3 * 24 * 3_600_000;
/** A `sending` claim older than this belonged to a sender that died: the row goes back to pending. */
export const SENDING_LEASE_MS = 2 * 60_000;

/**
 * Claims of senders that died go back to pending; the recipient is sent again under the same
 * message id, which the phone (like WhatsApp) shows once. Returns how many were released.
 */
export async function releaseDeadClaims(deps: Pick<CampaignDeps, 'db' | 'clock' | 'leaseMs'>): Promise<number> {
  const now = (deps.clock ?? systemClock).now();
  const released = await deps.db
    .update(campaignShippings)
    .set({ status: 'pending', claimedAt: null })
    .where(
      and(
        eq(campaignShippings.status, 'sending'),
        lte(campaignShippings.claimedAt, new Date(now.getTime() - (deps.leaseMs ?? SENDING_LEASE_MS))),
      ),
    )
    .returning({ id: campaignShippings.id });
  return released.length;
}
/** How long a confirmation request waits for its "sim" before the campaign may finish without it. */
export const CONFIRMATION_WAIT_MS = 24 * 3_600_000;

/**
 * Wakes the connection's loop at `at` (now by default). With the queue's "short" policy a loop
 * already waiting keeps its turn and this is a no-op, so kicks never double the pace.
 */
export async function kickLoop(jobs: Jobs, whatsappId: number, at?: Date): Promise<void> {
  await jobs.send(CAMPAIGN_SEND_QUEUE, { whatsappId }, { singletonKey: loopKey(whatsappId), startAfter: at });
}

/**
 * Writes the campaign's recipients once, in one statement per source: the contact list's items and
 * the contacts of tickets tagged with its tag list, one row per number. Numbers WhatsApp refused and
 * numbers that opted out are written as skipped, so the report shows them.
 */
export async function prepareRecipients(tx: Db, campaign: typeof campaigns.$inferSelect): Promise<void> {
  if (campaign.preparedAt) return;
  const { id, companyId } = campaign;
  if (campaign.contactListId !== null)
    await tx.execute(sql`insert into campaign_shippings (company_id, campaign_id, number, name, email, variables, status, reason)
      select ${companyId}, ${id}, i.number, i.name, i.email, i.variables,
        case when i.is_whatsapp_valid = false or o.number is not null then 'skipped' else 'pending' end,
        case when i.is_whatsapp_valid = false then 'invalid' when o.number is not null then 'opted_out' end
      from contact_list_items i
      left join opt_outs o on o.company_id = ${companyId} and o.number = i.number
      where i.contact_list_id = ${campaign.contactListId} and i.company_id = ${companyId}
      on conflict (campaign_id, number) do nothing`);
  if (campaign.tagListId !== null)
    await tx.execute(sql`insert into campaign_shippings (company_id, campaign_id, number, name, email, status, reason)
      select distinct on (c.number) ${companyId}, ${id}, c.number, left(c.name, 100), c.email,
        case when o.number is not null then 'skipped' else 'pending' end,
        case when o.number is not null then 'opted_out' end
      from ticket_tags tt
      join tickets t on t.id = tt.ticket_id and t.company_id = ${companyId}
      join contacts c on c.id = t.contact_id and not c.is_group
      left join opt_outs o on o.company_id = ${companyId} and o.number = c.number
      where tt.tag_id = ${campaign.tagListId}
      order by c.number
      on conflict (campaign_id, number) do nothing`);
  await tx.update(campaigns).set({ preparedAt: new Date() }).where(eq(campaigns.id, id));
}

/** Flips one campaign to EM_ANDAMENTO from `from` and prepares it, in one transaction. */
async function start(db: Db, id: number, from: string[], now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [c] = await tx
      .update(campaigns)
      .set({ status: 'EM_ANDAMENTO', startedAt: sql`coalesce(${campaigns.startedAt}, ${now})`, completedAt: null })
      .where(and(eq(campaigns.id, id), inArray(campaigns.status, from)))
      .returning();
    if (!c) return false;
    await prepareRecipients(tx as unknown as Db, c);
    return true;
  });
}

/** A campaign with nothing left to send (or to wait for) is FINALIZADA; unanswered confirmations are skipped. */
async function finishIdle(db: Db, now: Date): Promise<number[]> {
  const stale = new Date(now.getTime() - CONFIRMATION_WAIT_MS);
  return db.transaction(async (tx) => {
    const done = await tx
      .update(campaigns)
      .set({ status: 'FINALIZADA', completedAt: now })
      .where(
        and(
          eq(campaigns.status, 'EM_ANDAMENTO'),
          sql`not exists (select 1 from campaign_shippings s where s.campaign_id = ${campaigns.id}
            and (s.status in ('pending', 'sending')
              or (s.status = 'confirming' and s.confirmation_requested_at > ${stale})))`,
        ),
      )
      .returning({ id: campaigns.id });
    if (done.length > 0)
      await tx
        .update(campaignShippings)
        .set({ status: 'skipped', reason: 'unconfirmed' })
        .where(
          and(
            inArray(
              campaignShippings.campaignId,
              done.map((d) => d.id),
            ),
            eq(campaignShippings.status, 'confirming'),
          ),
        );
    return done.map((d) => d.id);
  });
}

/** Finishes what is idle and tells the reports at once (they reload 5 s later). */
export async function finishCampaigns(deps: Pick<CampaignDeps, 'db' | 'realtime' | 'clock'>): Promise<void> {
  const now = (deps.clock ?? systemClock).now();
  for (const id of await finishIdle(deps.db, now)) await announceCampaign(deps.db, deps.realtime, id);
}

/**
 * The periodic starter (every minute, at boot, and after a change that may start a campaign):
 * releases claims of dead senders, starts due campaigns, finishes idle ones and wakes the loop of
 * every connected connection with work. Every step is one conditional statement, so instances
 * running it together do each thing once.
 */
export async function tickCampaigns(deps: CampaignDeps): Promise<void> {
  const { db } = deps;
  const now = (deps.clock ?? systemClock).now();
  await releaseDeadClaims(deps);
  const due = await db
    .select({ id: campaigns.id, scheduledAt: campaigns.scheduledAt })
    .from(campaigns)
    .where(and(eq(campaigns.status, 'PROGRAMADA'), lte(campaigns.scheduledAt, now)))
    .limit(100);
  for (const c of due) {
    if (c.scheduledAt && now.getTime() - c.scheduledAt.getTime() > MAX_START_LATE_MS) {
      // Too late to be what the company meant: it waits as INATIVA for a new date.
      await db
        .update(campaigns)
        .set({ status: 'INATIVA' })
        .where(and(eq(campaigns.id, c.id), eq(campaigns.status, 'PROGRAMADA')));
    } else if (!(await start(db, c.id, ['PROGRAMADA'], now))) continue;
    await announceCampaign(db, deps.realtime, c.id);
  }
  await finishCampaigns(deps);
  const busy = await db
    .selectDistinct({ whatsappId: campaigns.whatsappId })
    .from(campaigns)
    .innerJoin(whatsapps, eq(whatsapps.id, campaigns.whatsappId))
    .where(
      and(
        eq(campaigns.status, 'EM_ANDAMENTO'),
        eq(whatsapps.status, 'CONNECTED'),
        sql`exists (select 1 from campaign_shippings s where s.campaign_id = ${campaigns.id} and s.status = 'pending')`,
      ),
    );
  for (const b of busy) if (b.whatsappId !== null) await kickLoop(deps.jobs, b.whatsappId);
}

/** A connection came back: its campaigns go on (DOMAIN §8, a dropped session only pauses them). */
export async function resumeConnection(jobs: Jobs, db: Db, whatsappId: number): Promise<void> {
  const [running] = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.whatsappId, whatsappId), eq(campaigns.status, 'EM_ANDAMENTO')))
    .limit(1);
  if (running) await kickLoop(jobs, whatsappId);
}

type LifecycleDeps = Pick<CampaignDeps, 'jobs' | 'channels' | 'storage' | 'log'> & { clock?: Clock };

/** Spec part 2 §8: EM_ANDAMENTO (or a PROGRAMADA not started yet) → CANCELADA; the sender checks before every send. */
export async function cancelCampaign(ctx: ServiceContext, id: number): Promise<Campaign> {
  await campaignRow(ctx.db, ctx.companyId, id);
  const [row] = await ctx.db
    .update(campaigns)
    .set({ status: 'CANCELADA' })
    .where(and(eq(campaigns.id, id), inArray(campaigns.status, ['EM_ANDAMENTO', 'PROGRAMADA'])))
    .returning({ id: campaigns.id });
  if (!row) throw new AppError('ERR_CAMPAIGN_STATUS');
  return (await announceCampaign(ctx.db, ctx.realtime, id)) as Campaign;
}

/** CANCELADA → EM_ANDAMENTO: only the recipients still pending are sent. */
export async function restartCampaign(ctx: ServiceContext, deps: LifecycleDeps, id: number): Promise<Campaign> {
  await campaignRow(ctx.db, ctx.companyId, id);
  const now = (deps.clock ?? systemClock).now();
  if (!(await start(ctx.db, id, ['CANCELADA'], now))) throw new AppError('ERR_CAMPAIGN_STATUS');
  await tickCampaigns({ ...deps, db: ctx.db, realtime: ctx.realtime });
  return (await announceCampaign(ctx.db, ctx.realtime, id)) as Campaign;
}

/** A campaign saved with a time already come starts now (peers leave it stuck). */
export async function startIfDue(ctx: ServiceContext, deps: LifecycleDeps, campaign: Campaign): Promise<Campaign> {
  const now = (deps.clock ?? systemClock).now();
  if (campaign.status !== 'PROGRAMADA' || !campaign.scheduledAt || new Date(campaign.scheduledAt) > now)
    return campaign;
  await tickCampaigns({ ...deps, db: ctx.db, realtime: ctx.realtime });
  return (await announceCampaign(ctx.db, ctx.realtime, campaign.id)) as Campaign;
}
