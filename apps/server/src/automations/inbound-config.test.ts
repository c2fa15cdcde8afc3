import type { WeeklyScheduleEntry } from '@balcao/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatements } from '../../test/count-statements.js';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../test/harness.js';
import { companies } from '../modules/companies/companies.schema.js';
import { readInboundConfig } from './inbound-config.js';

/** The automations' configuration of a company and one of its connections, read in one statement. */

let server: TestServer;
let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  t = await createTenant(server);
  other = await createTenant(server);
});
afterAll(() => server.close());

const db = () => server.deps.database.db;

async function created(tenant: Tenant, url: string, payload: object): Promise<number> {
  const res = await server.call('POST', url, tenant.admin, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

/** A connection with two queues (the second first in menu order), options under the first, a setting and hours. */
let seq = 0;
async function configured(tenant: Tenant) {
  const color = () => `#${String(++seq).padStart(6, '0')}`;
  const later = await created(tenant, '/queue', {
    name: `Suporte ${seq}`,
    color: color(),
    orderQueue: 2,
    greetingMessage: 'Suporte aqui',
  });
  const first = await created(tenant, '/queue', { name: `Vendas ${seq}`, color: color(), orderQueue: 1 });
  const unlinked = await created(tenant, '/queue', {
    name: `Fora ${seq}`,
    color: color(),
    outOfHoursMessage: 'Fechado',
  });
  const top = await created(tenant, '/queue-options', { queueId: later, title: 'Boletos', message: 'Qual?' });
  const child = await created(tenant, '/queue-options', { queueId: later, parentId: top, title: '2ª via' });
  await created(tenant, '/queue-options', { queueId: unlinked, title: 'Não é da conexão' });
  const whatsappId = await created(tenant, '/whatsapp', {
    name: `Conexão ${tenant.companyId}`,
    provider: 'sandbox',
    greetingMessage: 'Olá!',
    queueIds: [later, first],
  });
  expect((await server.call('PUT', '/settings/timezone', tenant.admin, { value: 'America/Manaus' })).statusCode).toBe(
    200,
  );
  return { later, first, unlinked, top, child, whatsappId };
}

describe('inbound configuration (inbound-config)', () => {
  it('reads settings, connection, its queues in menu order, the company queues, hours and option trees in one statement', async () => {
    const c = await configured(t);
    const hours: WeeklyScheduleEntry[] = [
      { weekday: 'segunda', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
    ];
    await db().update(companies).set({ schedules: hours }).where(eq(companies.id, t.companyId));

    let config: Awaited<ReturnType<typeof readInboundConfig>> | undefined;
    const sent = await recordStatements(db(), async () => {
      config = await readInboundConfig(db(), t.companyId, c.whatsappId);
    });
    expect(sent).toHaveLength(1);
    if (!config) throw new Error('no config');

    expect(config.settings.get('timezone')).toBe('America/Manaus');
    expect(config.connection).toMatchObject({ id: c.whatsappId, companyId: t.companyId, greetingMessage: 'Olá!' });
    expect(config.connectionQueues.map((q) => q.id)).toEqual([c.first, c.later]);
    expect(config.connectionQueues[0]).toMatchObject({ id: c.first, name: expect.stringMatching(/^Vendas/) });
    expect([...config.companyQueues.keys()].sort((a, b) => a - b)).toEqual([c.later, c.first, c.unlinked]);
    expect(config.companyQueues.get(c.later)).toMatchObject({ greetingMessage: 'Suporte aqui', promptId: null });
    expect(config.companyQueues.get(c.unlinked)).toMatchObject({ outOfHoursMessage: 'Fechado' });
    expect(config.companyQueues.get(c.unlinked)?.schedules).toHaveLength(7);
    expect(config.companySchedules).toEqual(hours);

    expect(config.options.get(c.first)).toEqual([]);
    const tree = config.options.get(c.later) ?? [];
    expect(tree.map((o) => [o.id, o.title, o.children?.map((k) => k.id)])).toEqual([[c.top, 'Boletos', [c.child]]]);
    expect(config.options.has(c.unlinked)).toBe(false);
  });

  it("finds nothing of another company's connection, and only its own company's queues and settings", async () => {
    const tenant = await createTenant(server);
    const mine = await configured(tenant);
    const theirs = await configured(other);
    const config = await readInboundConfig(db(), tenant.companyId, theirs.whatsappId);
    expect(config.connection).toBeUndefined();
    expect(config.connectionQueues).toEqual([]);
    expect(config.options.size).toBe(0);
    expect(config.companyQueues.has(mine.later)).toBe(true);
    expect(config.companyQueues.has(theirs.later)).toBe(false);
  });

  it('a company without queues or connection gets empty parts and its own settings; an unknown company no hours', async () => {
    const bare = await createTenant(server);
    const config = await readInboundConfig(db(), bare.companyId, 0);
    expect(config.settings.get('timezone')).not.toBe('America/Manaus');
    expect(config.connection).toBeUndefined();
    expect(config.companyQueues.size).toBe(0);
    expect(config.companySchedules).toHaveLength(7);
    expect((await readInboundConfig(db(), 2_000_000_000, 0)).companySchedules).toBeUndefined();
  });
});
