import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Ack } from '../../channels/channel.js';
import { anyTenant } from '../../db/any-tenant.js';
import type { Db } from '../../db/client.js';
import { anyOfUnseen, statement } from '../../db/named-statement.js';
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
  const touched = await (ack.ack >= 3 ? shippingRead : shippingDelivered)(deps.db, ack);
  for (const t of touched) progressOf(deps).touch(t.campaignId);
}

/**
 * A receipt's update of a recipient, read or delivered: one statement of each kind, built once per
 * connection (so its times are the database's `now()`). Every receipt from 2 up runs one, whether its
 * message was a campaign's or not.
 */
function shippingAcked(read: boolean) {
  return statement(read ? 'shipping_read' : 'shipping_delivered', ['providerId', 'companyId'], (db, p) =>
    db
      .update(campaignShippings)
      .set({
        // An ack can beat the write of `sent` (the file list's files were still going): the times are
        // kept, and `settle` turns them into the state.
        status: sql`case when ${campaignShippings.status} = 'sending' then 'sending' else ${read ? 'read' : 'delivered'} end`,
        deliveredAt: sql`coalesce(${campaignShippings.deliveredAt}, now())`,
        ...(read ? { readAt: sql`coalesce(${campaignShippings.readAt}, now())` } : {}),
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(campaignShippings.providerId, p.providerId),
          eq(campaignShippings.companyId, p.companyId),
          inArray(campaignShippings.status, read ? ['sending', 'sent', 'delivered'] : ['sending', 'sent']),
        ),
      )
      .returning({ campaignId: campaignShippings.campaignId }),
  );
}
const shippingDelivered = shippingAcked(false);
const shippingRead = shippingAcked(true);

/**
 * The recipients of a company's numbers that a batch's replies reach, as one named statement of fixed
 * text for any number of numbers (built once, so its `updated_at` is the database's `now()`): each
 * answer is recorded, and the numbers in `confirming` that a running campaign asked for confirmation
 * are released. Written as one update, as the recipient who confirms also answered: two statements
 * would have to run one after the other. The states are written out, not parameters, so that the
 * generic plan can prove it reads the partial index of the numbers that may answer.
 */
const answeredBy = statement('campaign_answers', ['companyId', 'numbers', 'confirming'], (db, p) => {
  const releases = sql`(${campaignShippings.status} = 'confirming' and ${anyOfUnseen(campaignShippings.number, p.confirming, 'text')}
    and exists (select 1 from ${campaigns} c where c.id = ${campaignShippings.campaignId} and c.status = 'EM_ANDAMENTO'))`;
  return db
    .update(campaignShippings)
    .set({
      repliedAt: sql`coalesce(${campaignShippings.repliedAt}, now())`,
      status: sql`case when ${releases} then 'pending' else ${campaignShippings.status} end`,
      confirmation: sql`${campaignShippings.confirmation} or ${releases}`,
      retryAt: sql`case when ${releases} then null else ${campaignShippings.retryAt} end`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(campaignShippings.companyId, anyTenant(p.companyId)),
        anyOfUnseen(campaignShippings.number, p.numbers, 'text'),
        sql`${campaignShippings.status} in ('confirming', 'sent', 'delivered', 'read')`,
        sql`(${campaignShippings.repliedAt} is null or ${releases})`,
      ),
    )
    .returning({
      campaignId: campaignShippings.campaignId,
      // Only a release moves one of these states to pending.
      released: sql<boolean>`${campaignShippings.status} = 'pending'`,
    });
});

/** A message from a contact, as the campaigns see it. */
export interface ContactReply {
  number: string;
  body: string;
  fromMe: boolean;
  isGroup?: boolean;
}

/**
 * Contacts wrote (DOMAIN §8): one stored batch of a company's inbound messages, in order. Any answer
 * is recorded on the recipients it replies to; an opt-out word marks the number for the company and
 * skips what is still to send to it; "sim" / "1" / "ok" to a confirmation request of a running
 * campaign releases the main message. Each is one statement for the batch. The messages themselves
 * went through the ordinary pipeline already.
 */
export async function onCampaignReplies(deps: ReplyDeps, companyId: number, received: ContactReply[]): Promise<void> {
  const replies = received.filter((m) => !m.fromMe && !m.isGroup && m.body);
  if (replies.length === 0) return;
  const optingOut = new Map<string, string>();
  for (const m of replies) if (isOptOut(m.body) && !optingOut.has(m.number)) optingOut.set(m.number, m.body);
  // A number that opts out in the batch ends skipped whatever else it wrote, before or after.
  const confirming = [
    ...new Set(replies.filter((m) => !optingOut.has(m.number) && isPositive(m.body)).map((m) => m.number)),
  ];
  const answered = await answeredBy(deps.db, {
    companyId,
    numbers: [...new Set(replies.map((m) => m.number))],
    confirming,
  });
  const touched = new Set(answered.map((r) => r.campaignId));
  for (const id of await optOut(deps.db, companyId, optingOut)) touched.add(id);
  await kickReleased(
    deps,
    answered.filter((r) => r.released),
  );
  for (const id of touched) progressOf(deps).touch(id);
}

/** The numbers (with the word each wrote) leave the company's campaigns; the campaigns it touched. */
async function optOut(db: Db, companyId: number, words: Map<string, string>): Promise<number[]> {
  if (words.size === 0) return [];
  await db
    .insert(optOuts)
    .values([...words].map(([number, body]) => ({ companyId, number, word: optOutWord(body) })))
    .onConflictDoNothing();
  const skipped = await db
    .update(campaignShippings)
    .set({ status: 'skipped', reason: 'opted_out' })
    .where(
      and(
        eq(campaignShippings.companyId, companyId),
        inArray(campaignShippings.number, [...words.keys()]),
        inArray(campaignShippings.status, ['pending', 'confirming']),
      ),
    )
    .returning({ campaignId: campaignShippings.campaignId });
  return skipped.map((r) => r.campaignId);
}

/** The main messages of the released recipients go out: their campaigns' loops are woken. */
async function kickReleased(deps: ReplyDeps, released: { campaignId: number }[]): Promise<void> {
  if (released.length === 0 || !deps.jobs) return;
  const loops = await deps.db
    .selectDistinct({ whatsappId: campaigns.whatsappId })
    .from(campaigns)
    .where(
      inArray(
        campaigns.id,
        released.map((c) => c.campaignId),
      ),
    );
  for (const l of loops) if (l.whatsappId !== null) await kickLoop(deps.jobs, l.whatsappId);
}
