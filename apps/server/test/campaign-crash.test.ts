import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverProcess } from './server-process.js';

/**
 * The fault test of campaigns (issue 12): the real server process on PostgreSQL sends a campaign of
 * 300 sandbox recipients with no interval and is killed with SIGKILL mid-way, then restarted. Every
 * recipient must have received the message exactly once: the sandbox phones' outbox is the witness.
 * A kill between the provider's answer and the write of `sent` leaves a claim that the restarted
 * server releases after the lease and sends again under the same message id, which the phone (like
 * WhatsApp) shows once: tolerated, and reported (the phone's `sends` counts them); any other repeat
 * would be a second message on the phone.
 */
const RECIPIENTS = 300;
const databaseUrl = process.env.DATABASE_URL;

describe.runIf(databaseUrl)('a campaign across kill -9 (PostgreSQL)', () => {
  const server = serverProcess(databaseUrl as string, 'campaign_crash', { CAMPAIGN_LEASE_SECONDS: '3' });
  const { db, api, boot, killHard } = server;
  const count = async (sql: string, params: unknown[]) => Number((await db.query(sql, params)).rows[0].n);

  beforeAll(() => server.setUp());
  afterAll(() => server.tearDown());

  it(`${RECIPIENTS} recipients each receive the campaign once across a SIGKILL`, async () => {
    await boot();
    await db.connect();
    await server.login();
    const whatsappId = await server.sandbox('Campanha');
    // Sandbox only: no interval at all, so the kill lands mid-way through a fast stream of sends.
    const settings = { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, variables: [] };
    expect((await api('POST', '/campaign-settings', { settings })).status).toBe(200);
    const list = (await api('POST', '/contact-lists', { name: 'Trezentos' })).json as { id: number; companyId: number };
    const numbers = Array.from({ length: RECIPIENTS }, (_, i) => `5511955${String(i).padStart(6, '0')}`);
    await db.query(
      `insert into contact_list_items (company_id, contact_list_id, name, number, is_whatsapp_valid)
       select $1, $2, 'Pessoa ' || n, n, true from unnest($3::text[]) as n`,
      [list.companyId, list.id, numbers],
    );
    const created = await api('POST', '/campaigns', {
      name: 'Campanha do crash',
      contactListId: list.id,
      whatsappId,
      scheduledAt: new Date().toISOString(),
      message1: 'Oferta para {nome}',
    });
    expect(created.status).toBe(201);
    const campaignId = created.json.id as number;

    // Messages on the phones (a repeat under a message's id counts in `sends`, not as a message).
    const phones = 'select count(*) as n from sandbox_outbox where whatsapp_id = $1';
    const deadline = Date.now() + 60_000;
    while ((await count(phones, [whatsappId])) < RECIPIENTS / 3) {
      if (Date.now() > deadline) throw new Error('the campaign did not start sending');
      await new Promise((r) => setTimeout(r, 10));
    }
    await killHard();
    const atKill = await count(phones, [whatsappId]);
    expect(atKill).toBeLessThan(RECIPIENTS);
    await boot();

    const restarted = Date.now();
    for (;;) {
      const { rows } = await db.query<{ status: string }>('select status from campaigns where id = $1', [campaignId]);
      if (rows[0].status === 'FINALIZADA') break;
      if (Date.now() - restarted > 90_000) throw new Error(`campaign still ${rows[0].status} 90 s after the restart`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const finishedMs = Date.now() - restarted;
    // The witness: what each phone shows, and how often each message's id was sent.
    const phonesOf = await Promise.all(
      numbers.map(async (number) => {
        const res = await api('GET', `/sandbox/${whatsappId}/outbound?number=${number}`);
        return { number, messages: res.json as unknown as { sends: number }[] };
      }),
    );
    expect(phonesOf.filter((p) => p.messages.length !== 1).map((p) => p.number)).toEqual([]);
    const resent = phonesOf.reduce((sum, p) => sum + p.messages[0].sends - 1, 0);
    const stray = await count(
      `select count(*) as n from sandbox_outbox where whatsapp_id = $1 and not (number = any($2::text[]))`,
      [whatsappId, numbers],
    );
    expect(stray).toBe(0);
    const states = await db.query<{ status: string; n: string }>(
      `select status, count(*) as n from campaign_shippings where campaign_id = $1 group by status`,
      [campaignId],
    );
    expect(states.rows.map((r) => [r.status, Number(r.n)])).toEqual([['sent', RECIPIENTS]]);
    console.log(
      `campaign crash test: killed after ${atKill}/${RECIPIENTS} sends; finished ${finishedMs} ms after the restart; ` +
        `${resent} sent again under the same id after the kill (the phone shows each once)`,
    );
  }, 240_000);
});
