import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Ack } from '../../channels/channel.js';
import type { Db } from '../../db/client.js';
import type { Jobs } from '../../platform/jobs/jobs.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { kickLoop } from './campaigns.lifecycle.js';
import { progressOf } from './campaigns.progress.js';
import { isOptOut, isPositive, optOutWord } from './campaigns.render.js';
import { campaignShippings, campaigns, optOuts } from './campaigns.schema.js';

interface ReplyDeps {
  db: Db;
  realtime: Realtime;
  jobs?: Jobs;
}

/**
 * A provider ack of a campaign message: delivered (2) and read (3) move a recipient forward only,
 * never back, and only acks set them (never the return of `send`).
 */
export async function applyShippingAck(deps: ReplyDeps, ack: Ack): Promise<void> {
  if (ack.ack < 2) return;
  const now = new Date();
  const read = ack.ack >= 3;
  const touched = await deps.db
    .update(campaignShippings)
    .set({
      // An ack can beat the write of `sent` (the file list's files were still going): the times are
      // kept, and `settle` turns them into the state.
      status: sql`case when ${campaignShippings.status} = 'sending' then 'sending' else ${read ? 'read' : 'delivered'} end`,
      deliveredAt: sql`coalesce(${campaignShippings.deliveredAt}, ${now})`,
      ...(read ? { readAt: sql`coalesce(${campaignShippings.readAt}, ${now})` } : {}),
    })
    .where(
      and(
        eq(campaignShippings.providerId, ack.providerId),
        eq(campaignShippings.companyId, ack.companyId),
        inArray(campaignShippings.status, read ? ['sending', 'sent', 'delivered'] : ['sending', 'sent']),
      ),
    )
    .returning({ campaignId: campaignShippings.campaignId });
  for (const t of touched) progressOf(deps).touch(t.campaignId);
}

/**
 * A contact wrote (DOMAIN §8): an opt-out word marks the number for the company and skips what is
 * still to send to it; "sim" / "1" / "ok" to a confirmation request of a running campaign releases the
 * main message; any answer is recorded on the recipients it replies to. The message itself went
 * through the ordinary pipeline already.
 */
export async function onCampaignReply(
  deps: ReplyDeps,
  m: { companyId: number; number: string; body: string; fromMe: boolean; isGroup?: boolean },
): Promise<void> {
  if (m.fromMe || m.isGroup || !m.body) return;
  const { db } = deps;
  const now = new Date();
  const ofNumber = and(eq(campaignShippings.companyId, m.companyId), eq(campaignShippings.number, m.number));
  const touched = new Set<number>();
  const replied = await db
    .update(campaignShippings)
    .set({ repliedAt: now })
    .where(
      and(
        ofNumber,
        inArray(campaignShippings.status, ['confirming', 'sent', 'delivered', 'read']),
        isNull(campaignShippings.repliedAt),
      ),
    )
    .returning({ campaignId: campaignShippings.campaignId });
  for (const r of replied) touched.add(r.campaignId);
  if (isOptOut(m.body)) {
    await db
      .insert(optOuts)
      .values({ companyId: m.companyId, number: m.number, word: optOutWord(m.body) })
      .onConflictDoNothing();
    const skipped = await db
      .update(campaignShippings)
      .set({ status: 'skipped', reason: 'opted_out' })
      .where(and(ofNumber, inArray(campaignShippings.status, ['pending', 'confirming'])))
      .returning({ campaignId: campaignShippings.campaignId });
    for (const r of skipped) touched.add(r.campaignId);
  } else if (isPositive(m.body)) {
    const confirmed = await db
      .update(campaignShippings)
      .set({ status: 'pending', confirmation: true, retryAt: null })
      .where(
        and(
          ofNumber,
          eq(campaignShippings.status, 'confirming'),
          sql`exists (select 1 from ${campaigns} c where c.id = ${campaignShippings.campaignId} and c.status = 'EM_ANDAMENTO')`,
        ),
      )
      .returning({ campaignId: campaignShippings.campaignId });
    for (const r of confirmed) touched.add(r.campaignId);
    if (confirmed.length > 0 && deps.jobs) {
      const loops = await db
        .selectDistinct({ whatsappId: campaigns.whatsappId })
        .from(campaigns)
        .where(
          inArray(
            campaigns.id,
            confirmed.map((c) => c.campaignId),
          ),
        );
      for (const l of loops) if (l.whatsappId !== null) await kickLoop(deps.jobs, l.whatsappId);
    }
  }
  for (const id of touched) progressOf(deps).touch(id);
}
