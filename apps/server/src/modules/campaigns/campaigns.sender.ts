import { type CampaignSettings, campaignConfirmationKeys, campaignMessageKeys } from '@balcao/shared';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Channel, SentRef } from '../../channels/channel.js';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { AppError } from '../../platform/errors/app-error.js';
import { mapLimited } from '../../platform/map-limited.js';
import { stableMessageId } from '../../platform/message-id.js';
import { readStored } from '../../platform/storage/read-stored.js';
import { contacts } from '../contacts/contacts.schema.js';
import { fileOptionsOf } from '../files/files.service.js';
import { messages } from '../messages/messages.schema.js';
import { tickets } from '../tickets/tickets.schema.js';
import { whatsapps } from '../whatsapp/whatsapp.schema.js';
import { campaignSettingsOf } from './campaign-settings.service.js';
import {
  type CampaignDeps,
  type Clock,
  finishCampaigns,
  kickLoop,
  releaseDeadClaims,
  SENDING_LEASE_MS,
  systemClock,
} from './campaigns.lifecycle.js';
import { progressOf } from './campaigns.progress.js';
import { pickMessage, renderCampaignMessage } from './campaigns.render.js';
import { campaignPacing, campaignShippings, campaigns, optOuts } from './campaigns.schema.js';

type Shipping = typeof campaignShippings.$inferSelect;
type CampaignRow = typeof campaigns.$inferSelect;
type Pacing = Pick<CampaignSettings, 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval'>;

/** ±30 % around every interval (DOMAIN §8): fixed, fast sends get numbers banned. */
export const JITTER = 0.3;
/** Beta (Baileys) connections never send faster than this, whatever the settings say. */
export const BETA_MIN_GAP_MS = 5_000;
/** Gaps up to this are not worth a job: the loop goes on in the same job, for at most JOB_BUDGET_MS. */
const INLINE_GAP_MS = 0;
const JOB_BUDGET_MS = 5_000;
/**
 * With no gap between sends (interval 0 on a Cloud or sandbox connection) one claim takes up to
 * CLAIM_BATCH recipients, sent SEND_CONCURRENCY at a time: the claim's transaction and the commits of
 * the outcomes are shared instead of paid per message.
 */
const CLAIM_BATCH = 50;
const SEND_CONCURRENCY = 8;
/** Transient failures: attempts and the wait before each retry. */
export const MAX_ATTEMPTS = 5;
const RETRY_DELAYS_MS = [30_000, 120_000, 300_000, 900_000];
/** The Cloud API's customer-service window. */
const WINDOW_MS = 24 * 3_600_000;

/**
 * The wait after the `sent`-th send of a connection: the message interval, or the long pause every
 * `longerIntervalAfter` sends, jittered; settings are seconds, compared with a count of sends
 * (the peers compare milliseconds with a contact index, so their long pause never happens).
 */
export function gapAfter(sent: number, pacing: Pacing, provider: string, random: () => number): number {
  const longPause =
    pacing.longerIntervalAfter > 0 && pacing.greaterInterval > 0 && sent % pacing.longerIntervalAfter === 0;
  const base = (longPause ? pacing.greaterInterval : pacing.messageInterval) * 1000;
  const gap = base * (1 - JITTER + 2 * JITTER * random());
  return Math.round(provider === 'beta' ? Math.max(gap, BETA_MIN_GAP_MS * (1 + JITTER * random())) : gap);
}

type Step =
  | { kind: 'wait'; at: Date }
  | { kind: 'idle'; retryAt: Date | null; claimedAt: Date | null }
  | { kind: 'send'; rows: Shipping[]; nextAt: Date };

/** What one loop job reads once: the connection, its running campaigns and the company's settings. */
interface LoopContext {
  provider: string;
  companyId: number;
  settings: CampaignSettings;
  running: number[];
}

async function loopContext(deps: CampaignDeps, whatsappId: number, now: Date): Promise<LoopContext | null> {
  const { db } = deps;
  const [connection] = await db
    .select({ status: whatsapps.status, provider: whatsapps.provider, companyId: whatsapps.companyId })
    .from(whatsapps)
    .where(eq(whatsapps.id, whatsappId));
  // A dropped session pauses sending; the connection coming back resumes it.
  if (connection?.status !== 'CONNECTED') return null;
  const running = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.whatsappId, whatsappId), eq(campaigns.status, 'EM_ANDAMENTO')))
    .orderBy(asc(campaigns.id));
  await db.insert(campaignPacing).values({ whatsappId, nextAt: now }).onConflictDoNothing();
  return {
    provider: connection.provider,
    companyId: connection.companyId,
    settings: await campaignSettingsOf(db, connection.companyId),
    running: running.map((r) => r.id),
  };
}

/**
 * The id the phone will ack for the main message, written by the claim itself (SQL twin of
 * `stableMessageId('campaign:<id>:main')`): an ack arriving while the file list's files still go
 * finds its recipient.
 */
const mainMessageId = sql`'3EB0' || upper(left(encode(sha256(convert_to('balcao:campaign:' || ${campaignShippings.id} || ':main', 'UTF8')), 'hex'), 18))`;

/**
 * How many recipients one claim takes: one while sends are paced (an interval, or a beta connection),
 * else up to CLAIM_BATCH but never past the next long pause, which comes after the batch's last send.
 */
function claimSize(sentCount: number, loop: LoopContext): number {
  const { messageInterval, longerIntervalAfter, greaterInterval } = loop.settings;
  if (loop.provider === 'beta' || messageInterval > 0) return 1;
  if (longerIntervalAfter > 0 && greaterInterval > 0) {
    return Math.min(CLAIM_BATCH, longerIntervalAfter - (sentCount % longerIntervalAfter));
  }
  return CLAIM_BATCH;
}

/**
 * Claims the connection's next recipients (claimSize) and books their pace, in one transaction
 * holding the connection's pacing row: two loops of one connection (a duplicated job, two instances)
 * take turns, and neither sends before `next_at`. Only a campaign still EM_ANDAMENTO gives recipients.
 */
async function nextStep(deps: CampaignDeps, whatsappId: number, loop: LoopContext, now: Date): Promise<Step> {
  return deps.db.transaction(async (tx): Promise<Step> => {
    const [pace] = rowsOf<{ next_at: Date | string; sent_count: number }>(
      await tx.execute(
        sql`select next_at, sent_count from campaign_pacing where whatsapp_id = ${whatsappId} for update`,
      ),
    );
    const nextAt = new Date(pace.next_at);
    if (nextAt > now) return { kind: 'wait', at: nextAt };
    const size = claimSize(pace.sent_count, loop);
    for (const campaignId of loop.running) {
      const rows = await tx
        .update(campaignShippings)
        .set({
          status: 'sending',
          claimedAt: now,
          attempts: sql`${campaignShippings.attempts} + 1`,
          providerId: mainMessageId,
        })
        .where(
          sql`${campaignShippings.id} in (select id from campaign_shippings where campaign_id = ${campaignId}
            and status = 'pending' and (retry_at is null or retry_at <= ${now}) order by id limit ${size} for update skip locked)
            and ${campaignShippings.status} = 'pending'
            and exists (select 1 from campaigns c where c.id = ${campaignId} and c.status = 'EM_ANDAMENTO')`,
        )
        .returning();
      if (!rows.length) continue;
      const sent = pace.sent_count + rows.length;
      const next = new Date(
        now.getTime() + gapAfter(sent, loop.settings, loop.provider, (deps.clock ?? systemClock).random),
      );
      await tx
        .update(campaignPacing)
        .set({ nextAt: next, sentCount: sent })
        .where(eq(campaignPacing.whatsappId, whatsappId));
      return { kind: 'send', rows: rows.sort((x, y) => x.id - y.id), nextAt: next };
    }
    // What keeps the campaigns open: retries waiting for their time, claims of a sender that may have died.
    const [open] = await tx
      .select({
        retryAt: sql<Date | null>`min(${campaignShippings.retryAt}) filter (where ${campaignShippings.status} = 'pending')`,
        claimedAt: sql<Date | null>`min(${campaignShippings.claimedAt}) filter (where ${campaignShippings.status} = 'sending')`,
      })
      .from(campaignShippings)
      .innerJoin(campaigns, eq(campaigns.id, campaignShippings.campaignId))
      .where(
        and(
          eq(campaigns.whatsappId, whatsappId),
          eq(campaigns.status, 'EM_ANDAMENTO'),
          inArray(campaignShippings.status, ['pending', 'sending']),
        ),
      );
    const at = (v: Date | string | null | undefined) => (v ? new Date(v) : null);
    return { kind: 'idle', retryAt: at(open?.retryAt), claimedAt: at(open?.claimedAt) };
  });
}

/**
 * One connection's loop (the job of CAMPAIGN_SEND_QUEUE): sends the claimed recipients, then
 * schedules itself for when the pace allows the next one. A job works for at most JOB_BUDGET_MS;
 * what it read once (connection, settings, running campaigns) is read again by the next job.
 */
export async function runCampaignLoop(deps: CampaignDeps, whatsappId: number): Promise<void> {
  const clock = deps.clock ?? systemClock;
  const budget = Date.now() + JOB_BUDGET_MS;
  const loop = await loopContext(deps, whatsappId, clock.now());
  if (!loop) return;
  for (;;) {
    const step = await nextStep(deps, whatsappId, loop, clock.now());
    if (step.kind === 'wait') return kickLoop(deps.jobs, whatsappId, step.at);
    if (step.kind === 'idle') {
      if (step.claimedAt && (await releaseDeadClaims(deps)) > 0) continue;
      await finishCampaigns(deps);
      const leaseEnd = step.claimedAt && new Date(step.claimedAt.getTime() + (deps.leaseMs ?? SENDING_LEASE_MS) + 1);
      const wake = [step.retryAt, leaseEnd].filter((d): d is Date => d instanceof Date).sort((x, y) => +x - +y)[0];
      if (wake) await kickLoop(deps.jobs, whatsappId, wake);
      return;
    }
    const outcomes = await mapLimited(step.rows, SEND_CONCURRENCY, (row) =>
      sendShipping(deps, row, loop.provider, clock, loop.settings),
    );
    progressOf(deps).touch(step.rows[0].campaignId);
    // The session dropped under the loop: it stops here, and the connection coming back wakes it.
    if (outcomes.includes('released')) return;
    if (step.nextAt.getTime() - clock.now().getTime() > INLINE_GAP_MS || Date.now() > budget)
      return kickLoop(deps.jobs, whatsappId, step.nextAt);
  }
}

const graphCodeOf = (err: unknown): number | null => {
  const body = (err as { cause?: { body?: unknown } } | undefined)?.cause?.body;
  if (typeof body !== 'string') return null;
  try {
    const code = Number((JSON.parse(body) as { error?: { code?: unknown } }).error?.code);
    return Number.isFinite(code) ? code : null;
  } catch {
    return null;
  }
};

/** Graph errors: rate limits back off (130429, 131056); an undeliverable message (131049) is final. */
const RATE_LIMITED = new Set([130429, 131056]);
const UNDELIVERABLE = new Set([131049, 131026, 131047]);

type Outcome = { status: 'failed'; reason: string } | { status: 'retry'; reason: string } | { status: 'release' };

function classify(err: unknown, attempts: number): Outcome {
  const graph = graphCodeOf(err);
  const code = err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG';
  if (graph !== null && UNDELIVERABLE.has(graph)) return { status: 'failed', reason: `graph:${graph}` };
  if (code === 'ERR_WAPP_INVALID_CONTACT' || code === 'ERR_MEDIA_NOT_FOUND') return { status: 'failed', reason: code };
  // The session dropped between the claim and the send: not the recipient's fault, no attempt spent.
  if (code === 'ERR_WAPP_NOT_INITIALIZED') return { status: 'release' };
  const reason = graph !== null && RATE_LIMITED.has(graph) ? `graph:${graph}` : code;
  return attempts >= MAX_ATTEMPTS ? { status: 'failed', reason } : { status: 'retry', reason };
}

/** Writes the outcome of a claimed row, only while it is still this sender's claim. */
async function settle(db: Db, id: number, set: Partial<Omit<Shipping, 'status'>> & { status: string | SQL }) {
  await db
    .update(campaignShippings)
    .set({ claimedAt: null, ...set })
    .where(and(eq(campaignShippings.id, id), eq(campaignShippings.status, 'sending')));
}

/** The Cloud API's window: the contact wrote on this connection within 24 hours. */
async function windowOpen(db: Db, row: Shipping, whatsappId: number, now: Date): Promise<boolean> {
  const [hit] = await db
    .select({ one: sql`1` })
    .from(messages)
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(
      and(
        eq(contacts.companyId, row.companyId),
        eq(contacts.number, row.number),
        eq(tickets.whatsappId, whatsappId),
        eq(messages.fromMe, false),
        sql`${messages.createdAt} > ${new Date(now.getTime() - WINDOW_MS)}`,
      ),
    )
    .limit(1);
  return Boolean(hit);
}

const textsOf = (c: CampaignRow, keys: readonly (keyof CampaignRow)[]) => keys.map((k) => c[k] as string | null);

/** What one recipient receives: the chosen message (with the campaign's media as caption'd file), then the file list's files. */
async function sendMain(
  deps: CampaignDeps,
  channel: Channel,
  c: CampaignRow,
  row: Shipping,
  clock: Clock,
  useTemplate: boolean,
  settings: CampaignSettings,
): Promise<{ ref: SentRef; index: number | null }> {
  const render = (text: string) => renderCampaignMessage(text, row, settings.variables);
  const id = (part: string) => ({ messageId: stableMessageId(`campaign:${row.id}:${part}`) });
  if (useTemplate && c.templateName && c.templateLanguage && channel.sendTemplate) {
    const ref = await channel.sendTemplate(
      row.number,
      { name: c.templateName, language: c.templateLanguage, variables: c.templateVariables.map(render) },
      id('template'),
    );
    return { ref, index: null };
  }
  const pick = pickMessage(textsOf(c, campaignMessageKeys), clock.random);
  const body = pick ? render(pick.text) : '';
  const ref = c.mediaKey
    ? await channel.sendMedia(
        row.number,
        {
          data: await readStored(deps.storage, c.mediaKey),
          fileName: c.mediaName ?? 'arquivo',
          mimetype: c.mediaMime ?? 'application/octet-stream',
        },
        body,
        id('main'),
      )
    : await channel.sendText(row.number, body, id('main'));
  if (c.fileListId !== null) {
    for (const file of await fileOptionsOf(deps.db, c.companyId, c.fileListId)) {
      await channel.sendMedia(
        row.number,
        { data: await readStored(deps.storage, file.key), fileName: file.fileName, mimetype: file.mediaType },
        '',
        id(`file:${file.id}`),
      );
    }
  }
  return { ref, index: pick?.index ?? null };
}

/**
 * Sends one claimed recipient. Sending never creates, reopens or closes a ticket (DOMAIN §8): the
 * contact's answer does, through the ordinary inbound pipeline.
 */
export async function sendShipping(
  deps: CampaignDeps,
  row: Shipping,
  provider: string,
  clock: Clock = systemClock,
  known?: CampaignSettings,
): Promise<'done' | 'released'> {
  const { db } = deps;
  const now = clock.now();
  const [found] = await db
    .select({
      c: campaigns,
      optedOut: sql<boolean>`exists (select 1 from ${optOuts} o where o.company_id = ${row.companyId}
        and o.number = ${row.number})`,
      mine: sql<boolean>`exists (select 1 from campaign_shippings s where s.id = ${row.id}
        and s.status = 'sending' and s.claimed_at is not distinct from ${row.claimedAt})`,
    })
    .from(campaigns)
    .where(eq(campaigns.id, row.campaignId));
  // The claim outlived its lease while it waited in its batch (a slow file list, a stalled provider):
  // released as dead, the recipient is another sender's now, or pending again. Sending it here too
  // would be a second message (on the Cloud API under a new id).
  if (found && !found.mine) return 'done';
  const c = found?.c;
  // Cancelled (or deleted) between the claim and now: the row waits for a restart.
  if (c?.status !== 'EM_ANDAMENTO' || c.whatsappId === null) {
    await settle(db, row.id, { status: 'pending', attempts: Math.max(0, row.attempts - 1) });
    return 'done';
  }
  if (found?.optedOut) {
    await settle(db, row.id, { status: 'skipped', reason: 'opted_out' });
    return 'done';
  }
  const settings = known ?? (await campaignSettingsOf(db, c.companyId));
  try {
    const channel = deps.channels.get(c.whatsappId);
    let useTemplate = false;
    if (provider === 'cloud' && !(await windowOpen(db, row, c.whatsappId, now))) {
      if (!c.templateName) {
        await settle(db, row.id, { status: 'skipped', reason: 'window_closed' });
        return 'done';
      }
      useTemplate = true;
    }
    if (c.confirmation && !row.confirmation && !row.confirmationRequestedAt && !useTemplate) {
      const pick = pickMessage(textsOf(c, campaignConfirmationKeys), clock.random);
      if (pick) {
        const ref = await channel.sendText(row.number, renderCampaignMessage(pick.text, row, settings.variables), {
          messageId: stableMessageId(`campaign:${row.id}:confirmation`),
        });
        await settle(db, row.id, {
          status: 'confirming',
          confirmationRequestedAt: now,
          confirmationProviderId: ref.providerId,
          reason: null,
          retryAt: null,
        });
        return 'done';
      }
    }
    const { ref, index } = await sendMain(deps, channel, c, row, clock, useTemplate, settings);
    await settle(db, row.id, {
      status: sql`case when ${campaignShippings.readAt} is not null then 'read'
        when ${campaignShippings.deliveredAt} is not null then 'delivered' else 'sent' end`,
      providerId: ref.providerId,
      messageIndex: index,
      sentAt: now,
      reason: null,
      retryAt: null,
    });
  } catch (err) {
    const outcome = classify(err, row.attempts);
    deps.log.warn({ err, shippingId: row.id, attempt: row.attempts }, 'campaign send failed');
    if (outcome.status === 'failed') await settle(db, row.id, { status: 'failed', reason: outcome.reason });
    else if (outcome.status === 'release') {
      await settle(db, row.id, {
        status: 'pending',
        attempts: Math.max(0, row.attempts - 1),
        retryAt: new Date(now.getTime() + RETRY_DELAYS_MS[0]),
      });
      return 'released';
    } else {
      const delay = RETRY_DELAYS_MS[Math.min(row.attempts - 1, RETRY_DELAYS_MS.length - 1)];
      await settle(db, row.id, { status: 'pending', reason: outcome.reason, retryAt: new Date(now.getTime() + delay) });
    }
  }
  return 'done';
}
