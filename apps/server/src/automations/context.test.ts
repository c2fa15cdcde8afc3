import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../test/harness.js';
import { connectedSandbox } from '../../test/sandbox-helpers.js';
import type { Db } from '../db/client.js';
import { recordBatch } from '../inbound/inbound-batch.js';
import { type StoredInbound, storeInbound } from '../inbound/store-inbound.js';
import { inboundContext } from './context.js';
import { prepareInboundAutomations } from './index.js';

/** What the automations of one stored batch read together (context.ts). */

let server: TestServer;
let t: Tenant;
let db: Db;
let whatsappId: number;
beforeAll(async () => {
  server = await createTestServer();
  t = await createTenant(server);
  db = server.deps.database.db;
  whatsappId = await connectedSandbox(server, t.admin);
});
afterAll(() => server.close());

async function storedBatch(fromMe: boolean): Promise<StoredInbound> {
  const { results, announced } = await storeInbound(
    { db, realtime: server.deps.realtime, log: pino({ level: 'silent' }) },
    [
      {
        message: {
          companyId: t.companyId,
          whatsappId,
          providerId: `CTX-${fromMe}-${Date.now()}`,
          number: '5511966610001',
          pushName: 'Cliente',
          fromMe,
          body: 'Oi',
          mediaType: 'chat',
        },
      },
    ],
  );
  await announced;
  const [stored] = results;
  if ('skipped' in stored) throw new Error('not stored');
  recordBatch({ stored: [stored], bodies: new Map([[stored.messageId, 'Oi']]) });
  return stored;
}

/** What the database driver was sent and what it answered, in order, while `run` runs. */
async function driverLog(run: () => Promise<unknown>): Promise<string[]> {
  const client = (db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
  const query = client.query;
  const log: string[] = [];
  client.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text: string };
    const text = typeof first === 'string' ? first : first.text;
    const kind = text.includes('"companies"."schedules"') ? 'config' : text.includes('"tickets"') ? 'ticket' : 'other';
    log.push(`sent ${kind}`);
    return query.apply(this, args).then((r) => {
      log.push(`answered ${kind}`);
      return r;
    });
  };
  try {
    await run();
  } finally {
    client.query = query;
  }
  return log;
}

describe("a batch's automation context", () => {
  it("reads the company's configuration while the first step reads the ticket", async () => {
    const stored = await storedBatch(false);
    const log = await driverLog(async () => {
      const ctx = inboundContext({ db }, stored);
      expect((await ctx.ticket(stored))?.id).toBe(stored.ticketId);
      await ctx.setting(t.companyId, 'userRating');
    });
    expect(log.filter((e) => e.startsWith('sent'))).toEqual(['sent config', 'sent ticket']);
    expect(log.indexOf('sent config')).toBeLessThan(log.indexOf('answered ticket'));
  });

  it('reads no configuration for messages written on the phone until a step asks', async () => {
    const stored = await storedBatch(true);
    const log = await driverLog(async () => {
      await inboundContext({ db }, stored).ticket(stored);
    });
    expect(log).toEqual(['sent ticket', 'answered ticket']);
  });

  it("starts reading the company's configuration when the batch is stored, unless it was all written on the phone", async () => {
    const fromPhone = await storedBatch(true);
    expect(await driverLog(async () => prepareInboundAutomations({ db }, [fromPhone]))).toEqual([]);
    const stored = await storedBatch(false);
    const prepared = await driverLog(async () => prepareInboundAutomations({ db }, [fromPhone, stored]));
    expect(prepared.filter((e) => e.startsWith('sent'))).toEqual(['sent config']);
    const later = await driverLog(() => inboundContext({ db }, stored).setting(t.companyId, 'userRating'));
    expect(later).toEqual([]);
  });

  it("reads a message's ticket when its automations start, not as its batch's store left it", async () => {
    const deps = { db, realtime: server.deps.realtime, log: pino({ level: 'silent' }) };
    const { results } = await storeInbound(deps, [
      {
        message: {
          companyId: t.companyId,
          whatsappId,
          providerId: `CTX-later-${Date.now()}`,
          number: '5511966610002',
          pushName: 'Cliente',
          fromMe: false,
          body: '2',
          mediaType: 'chat',
        },
      },
    ]);
    const [stored] = results;
    if ('skipped' in stored) throw new Error('not stored');
    recordBatch({ stored: [stored], bodies: new Map() });
    // The automations of the contact's previous message, which this one waited for, chose a queue
    // after this batch was stored.
    const [queue] = (
      await server.deps.database.query<{ id: number }>(
        `insert into queues (company_id, name, color) values ($1, 'Depois', '#123456') returning id`,
        [t.companyId],
      )
    ).rows;
    await server.deps.database.query(`update tickets set queue_id = $1, chatbot = true where id = $2`, [
      queue.id,
      stored.ticketId,
    ]);
    const ticket = await inboundContext({ db }, stored).ticket(stored);
    expect(ticket).toMatchObject({ queueId: queue.id, chatbot: true });
  });
});
