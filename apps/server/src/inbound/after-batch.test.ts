import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements } from '../../test/count-statements.js';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../test/harness.js';
import { genericPlanIndexes } from '../../test/plan.js';
import type { Db } from '../db/client.js';
import { onCampaignReplies } from '../modules/campaigns/campaigns.replies.js';
import { cancelOnReply } from '../modules/schedules/schedules.sender.js';

/**
 * The writes every inbound batch runs beyond its tickets (after-batch.ts): the schedules its
 * writers cancel and the campaign recipients who answered. Each is one named statement whose text
 * does not change with the batch, planned once per connection on the partial index of the rows a
 * reply can reach, and scoped to the batch's company.
 */
let server: TestServer;
let db: Db;
let a: Tenant;
let b: Tenant;
const CONTACTS = 2_000;
const query = (text: string, values: unknown[] = []) => server.deps.database.query(text, values);
const numberOf = (i: number) => `55119${String(i).padStart(8, '0')}`;
let contactIds: number[] = [];
const realtime = () => server.deps.realtime;

/**
 * A company's contacts, each with a schedule due tomorrow (every other one to be cancelled by a
 * reply), and a running campaign that will reach them all.
 */
async function seed(tenant: Tenant) {
  const contacts = await query(
    `insert into contacts (company_id, name, number)
     select $1, 'Cliente ' || g, '55119' || lpad(g::text, 8, '0') from generate_series(0, $2 - 1) g returning id`,
    [tenant.companyId, CONTACTS],
  );
  await query(
    `insert into schedules (company_id, contact_id, body, send_at, status, cancel_if_replied)
     select $1, id, 'Lembrete', now() + interval '1 day', 'PENDENTE', id % 2 = 0 from contacts where company_id = $1`,
    [tenant.companyId],
  );
  const [campaign] = (
    await query(
      `insert into campaigns (company_id, name, status) values ($1, 'Promoção', 'EM_ANDAMENTO') returning id`,
      [tenant.companyId],
    )
  ).rows as { id: number }[];
  await query(
    `insert into campaign_shippings (company_id, campaign_id, number, status)
     select $1, $2, number, 'pending' from contacts where company_id = $1`,
    [tenant.companyId, campaign.id],
  );
  return { contactIds: (contacts.rows as { id: number }[]).map((r) => r.id), campaignId: campaign.id };
}

beforeAll(async () => {
  server = await createTestServer();
  db = server.deps.database.db;
  a = await createTenant(server);
  b = await createTenant(server);
  contactIds = (await seed(a)).contactIds;
  await seed(b);
  await query('analyze');
});
afterAll(() => server.close());

const reply = (i: number, body = 'Olá') => ({ number: numberOf(i), body, fromMe: false });

describe('cancel-if-replied', () => {
  it('is one text whatever the number of writers, planned on the pending schedules that ask for it', async () => {
    const [one] = await recordStatements(db, () => cancelOnReply(db, realtime(), a.companyId, contactIds.slice(0, 1)));
    const [three] = await recordStatements(db, () =>
      cancelOnReply(db, realtime(), a.companyId, contactIds.slice(1, 4)),
    );
    expect(three.text).toBe(one.text);
    if (server.deps.database.kind === 'postgres')
      expect(await genericPlanIndexes(db, three)).toContain('schedules_cancel_if_replied_idx');
  });

  it("cancels the company's pending schedules at the time of the reply", async () => {
    const contactId = contactIds[10];
    // Inserted after the statement was built: a time fixed when it was built would be older than the row
    // (its updated_at older still, so that only the cancel can make it new; PGlite's clock may give the
    // insert and the cancel the same instant).
    await query(
      `insert into schedules (company_id, contact_id, body, send_at, cancel_if_replied, created_at, updated_at)
       values ($1, $2, 'Volto a falar', now() + interval '1 hour', true, clock_timestamp(), clock_timestamp() - interval '1 day')`,
      [a.companyId, contactId],
    );
    await cancelOnReply(db, realtime(), a.companyId, [contactId]);
    const [row] = (
      await query(
        `select status, last_error, updated_at >= created_at as touched from schedules where contact_id = $1 and body = 'Volto a falar'`,
        [contactId],
      )
    ).rows;
    expect(row).toEqual({ status: 'CANCELADA', last_error: 'respondido', touched: true });
  });

  it("leaves another company's contacts alone", async () => {
    const contactId = contactIds[11];
    await query(
      `insert into schedules (company_id, contact_id, body, send_at, cancel_if_replied) values ($1, $2, 'Amanhã', now() + interval '1 hour', true)`,
      [a.companyId, contactId],
    );
    await cancelOnReply(db, realtime(), b.companyId, [contactId]);
    const [row] = (await query(`select status from schedules where contact_id = $1 and body = 'Amanhã'`, [contactId]))
      .rows;
    expect(row).toEqual({ status: 'PENDENTE' });
  });
});

describe('campaign replies', () => {
  const sent = async (tenant: Tenant, i: number, status: string) =>
    query(`update campaign_shippings set status = $3 where company_id = $1 and number = $2`, [
      tenant.companyId,
      numberOf(i),
      status,
    ]);
  const shipping = async (tenant: Tenant, i: number) =>
    (
      await query(
        `select status, confirmation, replied_at is not null as replied, updated_at >= replied_at as at_reply
         from campaign_shippings where company_id = $1 and number = $2`,
        [tenant.companyId, numberOf(i)],
      )
    ).rows[0];

  it('are one statement of one text whatever the numbers and confirmations, planned on the numbers that may answer', async () => {
    const replies = await recordStatements(db, () =>
      onCampaignReplies({ db, realtime: realtime() }, a.companyId, [reply(100)]),
    );
    const more = await recordStatements(db, () =>
      onCampaignReplies({ db, realtime: realtime() }, a.companyId, [reply(101), reply(102), reply(103, 'sim')]),
    );
    // Answers and a confirmation: one round trip, not one per kind.
    expect(more).toHaveLength(1);
    expect(more[0].text).toBe(replies[0].text);
    if (server.deps.database.kind !== 'postgres') return;
    expect(await genericPlanIndexes(db, more[0])).toContain('campaign_shippings_company_number_idx');
  });

  it("record the company's answers at the time of the reply and release confirmations", async () => {
    await sent(a, 200, 'sent');
    await sent(a, 201, 'confirming');
    await sent(b, 200, 'sent');
    await onCampaignReplies({ db, realtime: realtime() }, a.companyId, [reply(200), reply(201, 'sim')]);
    expect(await shipping(a, 200)).toEqual({ status: 'sent', confirmation: false, replied: true, at_reply: true });
    expect(await shipping(a, 201)).toEqual({ status: 'pending', confirmation: true, replied: true, at_reply: true });
    // The same number in another company's campaign did not answer it.
    expect(await shipping(b, 200)).toEqual({ status: 'sent', confirmation: false, replied: false, at_reply: null });
  });
});
