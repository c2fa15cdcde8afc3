import type { Schedule } from '@balcao/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../../test/harness.js';
import { connectedSandbox, phoneOf } from '../../../test/sandbox-helpers.js';
import { SCHEDULE_QUEUE, singletonOf } from './schedules.jobs.js';

/**
 * The durable job of each schedule (DOMAIN §7) with pg-boss running: written with the row, replaced
 * by an edit, cancelled by a delete, and worked by the queue's worker when it comes due.
 */
let server: TestServer;
let t: Tenant;
let whatsappId: number;

beforeAll(async () => {
  server = await createTestServer({}, { jobs: true });
  t = await createTenant(server);
  whatsappId = await connectedSandbox(server, t.admin);
});
afterAll(() => server.close());

interface JobRow {
  state: string;
  start_after: Date | string;
}

async function jobsOf(id: number): Promise<JobRow[]> {
  const result = (await server.deps.database.db.execute(
    sql`select state, start_after from pgboss.job where name = ${SCHEDULE_QUEUE} and singleton_key = ${singletonOf(id)} order by created_on, id`,
  )) as unknown as { rows: JobRow[] } | JobRow[];
  return Array.isArray(result) ? result : result.rows;
}

const live = (jobs: JobRow[]) => jobs.filter((j) => j.state === 'created');
const at = (j: JobRow) => new Date(j.start_after).toISOString();

async function contact(number: string) {
  const res = await server.call('POST', '/contacts', t.admin, { name: 'Lembrete', number });
  return res.json() as { id: number; number: string };
}

describe('the job of a schedule', () => {
  it('is written with the row, replaced by an edit and cancelled by a delete', async () => {
    const c = await contact('5511970001001');
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const created = await server.call('POST', '/schedules', t.admin, {
      body: 'Lembrete da consulta',
      contactId: c.id,
      sendAt,
    });
    expect(created.statusCode, created.body).toBe(201);
    const s = created.json() as Schedule;
    expect(live(await jobsOf(s.id)).map(at)).toEqual([sendAt]);

    const later = new Date(Date.now() + 7_200_000).toISOString();
    expect((await server.call('PUT', `/schedules/${s.id}`, t.admin, { sendAt: later })).statusCode).toBe(200);
    expect(live(await jobsOf(s.id)).map(at)).toEqual([later]);

    expect((await server.call('DELETE', `/schedules/${s.id}`, t.admin)).statusCode).toBe(200);
    expect(live(await jobsOf(s.id))).toEqual([]);
  });

  it('is worked by the queue when due: the message reaches the phone once', async () => {
    const c = await contact('5511970001002');
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const s = (
      await server.call('POST', '/schedules', t.admin, { body: 'Sua consulta é amanhã', contactId: c.id, sendAt })
    ).json() as Schedule;
    // Due now: the row and its job, as if the hour had passed.
    await server.deps.database.db.execute(sql`update schedules set send_at = now() where id = ${s.id}`);
    await server.deps.database.db.execute(
      sql`update pgboss.job set start_after = now() where name = ${SCHEDULE_QUEUE} and singleton_key = ${singletonOf(s.id)} and state = 'created'`,
    );
    await vi.waitFor(
      async () => {
        const phone = await phoneOf(server, t.admin, whatsappId, c.number);
        expect(phone.map((m) => m.body)).toEqual(['Sua consulta é amanhã']);
        // The row is marked sent once the send returns, a moment after the phone has the message.
        const row = await server.call('GET', `/schedules/${s.id}`, t.admin);
        expect(row.json()).toMatchObject({ status: 'ENVIADA' });
      },
      { timeout: 20_000, interval: 250 },
    );
  });
});
