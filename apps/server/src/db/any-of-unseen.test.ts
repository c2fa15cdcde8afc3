import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements } from '../../test/count-statements.js';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../test/harness.js';
import { plansOf } from '../../test/plan.js';
import { connectedSandbox } from '../../test/sandbox-helpers.js';
import { storeInbound } from '../inbound/store-inbound.js';
import { updateBotStates } from '../modules/tickets/tickets.bot-state.js';
import { selectTicketsOf } from '../modules/tickets/tickets.view.js';

/**
 * A named statement whose array the planner does not see (anyOfUnseen) gets PostgreSQL's generic
 * plan from its sixth call: the ticket views by ids, read several times per inbound batch, were
 * planned on every call (0.4 ms of the database's CPU each in the inbound bench).
 */
let server: TestServer;
let tenant: Tenant;
let ticketIds: number[] = [];
beforeAll(async () => {
  server = await createTestServer();
  tenant = await createTenant(server);
  const whatsappId = await connectedSandbox(server, tenant.admin);
  const { results, announced } = await storeInbound(
    { db: server.deps.database.db, realtime: server.deps.realtime, log: pino({ level: 'silent' }) },
    Array.from({ length: 30 }, (_, i) => ({
      message: {
        companyId: tenant.companyId,
        whatsappId,
        providerId: `UNSEEN-${i}`,
        number: `551190000${String(i).padStart(4, '0')}`,
        pushName: `Cliente ${i}`,
        fromMe: false,
        body: 'Olá',
        mediaType: 'chat' as const,
      },
    })),
  );
  await announced;
  ticketIds = results.flatMap((r) => ('skipped' in r ? [] : [r.ticketId]));
  // A company's history: closed tickets enough for the plan to depend on the number of ids.
  await server.deps.database.query(
    `insert into tickets (company_id, contact_id, whatsapp_id, status)
     select company_id, contact_id, whatsapp_id, 'closed' from tickets, generate_series(1, 200) where id = any($1)`,
    [ticketIds],
  );
  await server.deps.database.query('analyze');
});
afterAll(() => server.close());

describe('anyOfUnseen', () => {
  it('lets the ticket views by ids keep a generic plan', async ({ skip }) => {
    if (server.deps.database.kind !== 'postgres') skip('PGlite plans every statement');
    const [sent] = await recordStatements(server.deps.database.db, async () => {
      expect((await selectTicketsOf(server.deps.database.db, tenant.companyId, ticketIds.slice(0, 3))).length).toBe(3);
    });
    expect(sent.text).toContain('(select $1::int[])::int[]');
    expect(await plansOf(server.deps.database.db, sent)).toEqual({ generic: 2, custom: 5 });
    // With its details joined, this view's planning is dear enough that PostgreSQL would keep the
    // generic plan with the array in sight too: the bot states' update below shows the contrast.
  });

  it("lets a batch's writes by arrays (arrayValue) keep a generic plan: the bot states' update", async ({ skip }) => {
    if (server.deps.database.kind !== 'postgres') skip('PGlite plans every statement');
    const [sent] = await recordStatements(server.deps.database.db, () =>
      updateBotStates(
        server.deps.database.db,
        tenant.companyId,
        ticketIds.slice(0, 3).map((ticketId, i) => ({ ticketId, change: { amountUsedBotQueues: i } })),
      ),
    );
    const unseen = /\(select (\$\d+)::(\w+)\[\]\)::\w+\[\]/g;
    expect(sent.text).toMatch(unseen);
    expect(await plansOf(server.deps.database.db, sent)).toEqual({ generic: 2, custom: 5 });
    // With the arrays in sight, PostgreSQL planned each batch anew (0.18 ms a call in the inbound bench).
    expect(await plansOf(server.deps.database.db, { ...sent, text: sent.text.replace(unseen, '$1::$2[]') })).toEqual({
      generic: 0,
      custom: 7,
    });
  });
});
