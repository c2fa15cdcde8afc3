import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../test/harness.js';
import { connectedSandbox } from '../../test/sandbox-helpers.js';
import type { Db } from '../db/client.js';
import { recordBatch } from '../inbound/inbound-batch.js';
import { type StoredInbound, storeInbound } from '../inbound/store-inbound.js';
import { inboundContext } from './context.js';

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
});
