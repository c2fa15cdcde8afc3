import type { Campaign, Shipping } from '@balcao/shared';
import { count, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordStatements } from '../../../test/count-statements.js';
import { type FakeGraph, fakeGraphConnection, startFakeGraph } from '../../../test/fakes/graph.js';
import { createTenant, createTestServer, type Session, type Tenant, type TestServer } from '../../../test/harness.js';
import { connectedSandbox, contactWrites, phoneOf } from '../../../test/sandbox-helpers.js';
import { GraphError } from '../../channels/cloud/cloud.channel.js';
import { AppError } from '../../platform/errors/app-error.js';
import { noJobs } from '../../platform/jobs/jobs.js';
import { contacts } from '../contacts/contacts.schema.js';
import { messages } from '../messages/messages.schema.js';
import { tickets } from '../tickets/tickets.schema.js';
import { CAMPAIGN_SEND_QUEUE, type CampaignDeps, tickCampaigns } from './campaigns.lifecycle.js';
import { renderCampaignMessage } from './campaigns.render.js';
import { onCampaignReplies } from './campaigns.replies.js';
import { campaignShippings, campaigns } from './campaigns.schema.js';
import { BETA_MIN_GAP_MS, gapAfter, runCampaignLoop, sendShipping } from './campaigns.sender.js';

let server: TestServer;
let graph: FakeGraph;
let t: Tenant;
let other: Tenant;
let deps: CampaignDeps;
/** The engine's clock: moved by the tests, never waited for. */
let nowMs = Date.now();
let dice: () => number = () => 0.5;
/** When each loop job asked to run again. */
const kicks: (Date | undefined)[] = [];

beforeAll(async () => {
  graph = await startFakeGraph();
  server = await createTestServer({ CLOUD_GRAPH_URL: graph.url });
  t = await createTenant(server, { plan: { connections: 30 } });
  other = await createTenant(server);
  deps = {
    ...server.deps,
    db: server.deps.database.db,
    log: pino({ level: 'silent' }),
    jobs: {
      ...noJobs,
      send: async (_queue, _data, options) => {
        kicks.push(options?.startAfter as Date | undefined);
        return 'job';
      },
    },
    clock: { now: () => new Date(nowMs), random: () => dice() },
  };
});
afterAll(async () => {
  await server?.close();
  await graph?.close();
});

const call = (s: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  server.call(method, url, s, payload);

let seq = 0;
/** A contact list with `n` numbers (the first `invalid` marked not on WhatsApp). */
async function listOf(n: number, opts: { invalid?: number; session?: Session } = {}) {
  const session = opts.session ?? t.admin;
  const list = (await call(session, 'POST', '/contact-lists', { name: `Lista ${++seq}` })).json() as { id: number };
  const numbers: string[] = [];
  for (let i = 0; i < n; i++) {
    const number = `55119${String(80000000 + seq * 1000 + i).padStart(8, '0')}`;
    const res = await call(session, 'POST', '/contact-list-items', {
      name: `Pessoa ${i}`,
      number,
      email: `p${i}@x.test`,
      contactListId: list.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    numbers.push(res.json().number);
  }
  if (opts.invalid) {
    const { contactListItems } = await import('../contact-lists/contact-lists.schema.js');
    for (const number of numbers.slice(0, opts.invalid))
      await deps.db.update(contactListItems).set({ isWhatsappValid: false }).where(eq(contactListItems.number, number));
  }
  return { id: list.id, numbers };
}

async function campaign(body: Record<string, unknown>, session: Session = t.admin) {
  const res = await call(session, 'POST', '/campaigns', {
    name: `Campanha ${++seq}`,
    scheduledAt: new Date(Date.now() - 1000).toISOString(),
    message1: 'Olá {nome}, seu número é {numero}',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Campaign;
}

const shippingsOf = (campaignId: number) =>
  deps.db
    .select()
    .from(campaignShippings)
    .where(eq(campaignShippings.campaignId, campaignId))
    .orderBy(campaignShippings.id);
const statusOf = async (id: number) =>
  (await deps.db.select({ s: campaigns.status }).from(campaigns).where(eq(campaigns.id, id)))[0]?.s;

/** Runs a connection's loop job after job, moving the clock to each job's start, until it stops asking. */
async function drain(whatsappId: number, maxJobs = 500) {
  for (let i = 0; i < maxJobs; i++) {
    kicks.length = 0;
    await runCampaignLoop(deps, whatsappId);
    const next = kicks.at(-1);
    if (!next) return;
    nowMs = Math.max(nowMs, next.getTime());
  }
}

/**
 * Each number's phone shows one message from the campaign, sent once: the message ids are fixed per
 * recipient, so a second send would not be a second message but would count in `sends`.
 */
async function expectEachSentOnce(whatsappId: number, numbers: string[]) {
  for (const number of numbers)
    expect(
      (await phoneOf(server, t.admin, whatsappId, number)).map((m) => m.sends),
      number,
    ).toEqual([1]);
}

async function settings(values: Record<string, unknown>) {
  const res = await call(t.admin, 'POST', '/campaign-settings', { settings: values });
  expect(res.statusCode, res.body).toBe(200);
}

describe('variables', () => {
  it('are plain substitutions: no RegExp, no second pass, unknown keys left as written', () => {
    const text = renderCampaignMessage(
      'Oi {nome} ({numero}) {email} {cupom} {a.b} {desconhecida} {{nome}}',
      { name: '{email} $& Ana', number: '5511', email: 'a@x', variables: { cupom: 'C10' } },
      [
        { key: 'cupom', value: 'from settings' },
        { key: 'a.b', value: 'never' },
      ],
    );
    expect(text).toBe('Oi {email} $& Ana (5511) a@x C10 never {desconhecida} {{email} $& Ana}');
  });
});

describe('routes, validation and editing rules', () => {
  it('creates with the spec payload (blank strings as null, wall-clock time in the company zone)', async () => {
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(1);
    const res = await call(t.admin, 'POST', '/campaigns', {
      name: 'Black Friday',
      contactListId: list.id,
      whatsappId: w,
      scheduledAt: '2099-11-27 09:30:00',
      tagListId: 'Nenhuma',
      fileListId: '',
      message1: 'Oi {nome}',
      message2: '',
      confirmation: 'false',
    });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json() as Campaign;
    expect(c).toMatchObject({ status: 'PROGRAMADA', message2: null, tagListId: null, fileListId: null });
    // São Paulo (the default zone) is UTC−3.
    expect(c.scheduledAt).toBe('2099-11-27T12:30:00.000Z');
    expect(c.contactList).toMatchObject({ id: list.id, contactsCount: 1 });
    const listed = (await call(t.admin, 'GET', '/campaigns/?searchParam=black&pageNumber=1')).json();
    expect(listed).toMatchObject({ count: 1, hasMore: false });
    expect(listed.records[0].id).toBe(c.id);
  });

  it('answers the spec messages for a bad form and saves nothing', async () => {
    const before = (await call(t.admin, 'GET', '/campaigns/')).json().count;
    const res = await call(t.admin, 'POST', '/campaigns', { name: 'A', message1: '' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Muito curto!');
    expect(res.body).toContain('Obrigatório');
    expect((await call(t.admin, 'GET', '/campaigns/')).json().count).toBe(before);
  });

  it('refuses another company’s tag or file list as not found', async () => {
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(1);
    const tag = (await call(other.admin, 'POST', '/tags', { name: 'Etiqueta de outra' })).json();
    const files = (
      await call(other.admin, 'POST', '/files', { name: 'Arquivos de outra', message: 'x', options: [] })
    ).json();
    const base = { name: 'Ref', contactListId: list.id, whatsappId: w, scheduledAt: '2099-01-01 10:00', message1: 'x' };
    const withTag = await call(t.admin, 'POST', '/campaigns', { ...base, tagListId: tag.id });
    expect(withTag.json().error).toBe('ERR_NO_TAG_FOUND');
    const withFiles = await call(t.admin, 'POST', '/campaigns', { ...base, fileListId: files.id });
    expect(withFiles.json().error).toBe('ERR_NO_FILE_LIST_FOUND');
  });

  it('is editable while INATIVA or PROGRAMADA more than an hour ahead; CANCELADA only in its messages', async () => {
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(2);
    const soon = await campaign({
      contactListId: list.id,
      whatsappId: w,
      scheduledAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    });
    const late = await call(t.admin, 'PUT', `/campaigns/${soon.id}`, { name: 'Outro nome' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe('ERR_CAMPAIGN_NOT_EDITABLE');
    const far = await campaign({ contactListId: list.id, whatsappId: w, scheduledAt: '2099-01-01 10:00:00' });
    expect((await call(t.admin, 'PUT', `/campaigns/${far.id}`, { name: 'Novo nome' })).json().name).toBe('Novo nome');

    const running = await campaign({ contactListId: list.id, whatsappId: w });
    expect(running.status).toBe('EM_ANDAMENTO');
    expect((await call(t.admin, 'PUT', `/campaigns/${running.id}`, { message1: 'x' })).statusCode).toBe(409);
    expect((await call(t.admin, 'POST', `/campaigns/${running.id}/restart`)).json().error).toBe('ERR_CAMPAIGN_STATUS');
    expect((await call(t.admin, 'POST', `/campaigns/${running.id}/cancel`)).json().status).toBe('CANCELADA');
    const messageOnly = await call(t.admin, 'PUT', `/campaigns/${running.id}`, {
      ...running,
      scheduledAt: running.scheduledAt,
      message1: 'Texto corrigido',
    });
    expect(messageOnly.statusCode, messageOnly.body).toBe(200);
    expect(messageOnly.json()).toMatchObject({ message1: 'Texto corrigido', status: 'CANCELADA' });
    const rename = await call(t.admin, 'PUT', `/campaigns/${running.id}`, { name: 'Renomeada' });
    expect(rename.json().error).toBe('ERR_CAMPAIGN_NOT_EDITABLE');
  });

  it('lets agents run campaigns but only admins delete them or change the settings; the plan flag closes it all', async () => {
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(1);
    const c = await campaign({ contactListId: list.id, whatsappId: w, scheduledAt: '2099-01-01 10:00' }, t.user);
    expect((await call(t.user, 'DELETE', `/campaigns/${c.id}`)).statusCode).toBe(403);
    expect((await call(t.user, 'POST', '/campaign-settings', { settings: { messageInterval: 5 } })).statusCode).toBe(
      403,
    );
    expect((await call(t.admin, 'DELETE', `/campaigns/${c.id}`)).statusCode).toBe(200);
    expect((await call(t.admin, 'GET', `/campaigns/${c.id}`)).statusCode).toBe(404);

    const off = await createTenant(server, { plan: { useCampaigns: false } });
    for (const [method, url] of [
      ['GET', '/campaigns/'],
      ['POST', '/campaigns'],
      ['GET', '/campaign-settings'],
    ] as const)
      expect((await call(off.admin, method, url, method === 'POST' ? {} : undefined)).statusCode, url).toBe(403);
  });

  it('closes every campaign route to a company whose plan lacks useCampaigns, before any validation', async () => {
    const off = await createTenant(server, { plan: { useCampaigns: false } });
    // Ids that are not numbers and bodies of the wrong types: a validation first would answer 400.
    const bad = 'not-an-id';
    const badBody = { name: 1, message1: [], scheduledAt: {}, settings: 'x' };
    const routes = [
      ['GET', '/campaigns/?pageNumber=0'],
      ['GET', `/campaigns/${bad}`],
      ['POST', '/campaigns'],
      ['PUT', `/campaigns/${bad}`],
      ['DELETE', `/campaigns/${bad}`],
      ['POST', `/campaigns/${bad}/media-upload`],
      ['DELETE', `/campaigns/${bad}/media-upload`],
      ['POST', `/campaigns/${bad}/cancel`],
      ['POST', `/campaigns/${bad}/restart`],
      ['GET', `/campaigns/${bad}/shipping?status=nope&pageNumber=0`],
      ['GET', `/campaigns/${bad}/shipping/export`],
      ['GET', '/campaign-settings'],
      ['POST', '/campaign-settings'],
    ] as const;
    const send = (session: Session, method: (typeof routes)[number][0], url: string) =>
      call(session, method, url, method === 'POST' || method === 'PUT' ? badBody : undefined);
    for (const session of [off.admin, off.user]) {
      for (const [method, url] of routes) {
        const res = await send(session, method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json(), `${method} ${url}`).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED' });
        expect(res.json().fields).toBeUndefined();
      }
    }
    // The control: with the flag on, the same calls reach the validation.
    for (const [method, url] of routes.filter(([method, url]) => method !== 'GET' || url !== '/campaign-settings')) {
      const res = await send(t.admin, method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(400);
    }
  });

  it('keeps the settings as key/value JSON and refuses options and keys the spec does not offer', async () => {
    const bad = await call(t.admin, 'POST', '/campaign-settings', {
      settings: { messageInterval: 7, variables: [{ key: 'nome', value: 'x' }] },
    });
    expect(bad.statusCode).toBe(400);
    await settings({ messageInterval: 10, variables: [{ key: 'cupom', value: 'BF10' }] });
    const rows = (await call(t.admin, 'GET', '/campaign-settings')).json() as { key: string; value: string }[];
    const byKey = Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value)]));
    expect(byKey).toEqual({
      messageInterval: 10,
      longerIntervalAfter: 20,
      greaterInterval: 60,
      variables: [{ key: 'cupom', value: 'BF10' }],
    });
    await settings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, variables: [] });
  });
});

describe('the sending engine', () => {
  it('sends each valid recipient once, skips refused and opted-out numbers, and finishes', async () => {
    await settings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, variables: [] });
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(5, { invalid: 1 });
    // The last one said SAIR to the company before.
    await contactWrites(server, t.admin, w, { number: list.numbers[4], name: 'Quem saiu', body: 'Sair.' });
    const c = await campaign({ contactListId: list.id, whatsappId: w, message1: 'Oi {nome} / {numero}' });
    expect(c.status).toBe('EM_ANDAMENTO');
    await drain(w);
    for (const [i, number] of list.numbers.entries()) {
      const phone = await phoneOf(server, t.admin, w, number);
      expect(phone.length, number).toBe(i === 0 || i === 4 ? 0 : 1);
      if (phone[0]) expect([phone[0].body, phone[0].sends]).toEqual([`Oi Pessoa ${i} / ${number}`, 1]);
    }
    const rows = await shippingsOf(c.id);
    expect(rows.map((r) => [r.status, r.reason])).toEqual([
      ['skipped', 'invalid'],
      ['sent', null],
      ['sent', null],
      ['sent', null],
      ['skipped', 'opted_out'],
    ]);
    const done = (await call(t.admin, 'GET', `/campaigns/${c.id}`)).json() as Campaign;
    expect(done.status).toBe('FINALIZADA');
    expect(done.completedAt).not.toBeNull();
    expect(done.counts).toMatchObject({ total: 5, sent: 3, skipped: 2, optedOut: 1, validContacts: 4 });
    const optedOut = (await call(t.admin, 'GET', `/campaigns/${c.id}/shipping?status=opted_out`)).json();
    expect(optedOut.records.map((r: Shipping) => r.number)).toEqual([list.numbers[4]]);
    const csv = (await call(t.admin, 'GET', `/campaigns/${c.id}/shipping/export`)).body;
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(6);
    expect(csv).toContain('opted_out');
  });

  it('spaces sends by the interval ±30 % and pauses every N sends (measured on an injected clock)', async () => {
    await settings({ messageInterval: 5, longerIntervalAfter: 5, greaterInterval: 30, variables: [] });
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(12);
    const extremes = [0, 0.999];
    let roll = 0;
    dice = () => extremes[roll++ % 2];
    const c = await campaign({ contactListId: list.id, whatsappId: w });
    await drain(w);
    dice = () => 0.5;
    const sentAt = (await shippingsOf(c.id)).map((r) => (r.sentAt as Date).getTime());
    expect(sentAt).toHaveLength(12);
    const gaps = sentAt.slice(1).map((at, i) => (at - sentAt[i]) / 1000);
    gaps.forEach((gap, i) => {
      const longPause = (i + 1) % 5 === 0;
      const [lo, hi] = longPause ? [21, 39] : [3.5, 6.5];
      expect(gap, `gap after send ${i + 1}`).toBeGreaterThanOrEqual(lo);
      expect(gap, `gap after send ${i + 1}`).toBeLessThanOrEqual(hi);
    });
    // The jitter really moves: both ends of the range are used.
    expect(Math.min(...gaps)).toBeLessThan(4);
    expect(Math.max(...gaps.filter((_g, i) => (i + 1) % 5 !== 0))).toBeGreaterThan(6);
    await settings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
  });

  it('with no interval sends in batches, still pausing every N sends', async () => {
    await settings({ messageInterval: 0, longerIntervalAfter: 5, greaterInterval: 30 });
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(12);
    const c = await campaign({ contactListId: list.id, whatsappId: w });
    await drain(w);
    const sentAt = (await shippingsOf(c.id)).map((r) => (r.sentAt as Date).getTime());
    expect(sentAt).toHaveLength(12);
    const gaps = sentAt.slice(1).map((at, i) => (at - sentAt[i]) / 1000);
    gaps.forEach((gap, i) => {
      // After the 5th and the 10th send the long pause, else none.
      const [lo, hi] = (i + 1) % 5 === 0 ? [21, 39] : [0, 0];
      expect(gap, `gap after send ${i + 1}`).toBeGreaterThanOrEqual(lo);
      expect(gap, `gap after send ${i + 1}`).toBeLessThanOrEqual(hi);
    });
    await expectEachSentOnce(w, list.numbers);
    await settings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
  });

  it('never lets a beta connection send faster than one message per 5 s', () => {
    for (const r of [0, 0.5, 0.999]) {
      expect(
        gapAfter(1, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 }, 'beta', () => r),
      ).toBeGreaterThanOrEqual(BETA_MIN_GAP_MS);
      expect(gapAfter(1, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 }, 'sandbox', () => r)).toBe(
        0,
      );
    }
  });

  it('a second loop of the same connection cannot send before the pace allows', async () => {
    await settings({ messageInterval: 20, longerIntervalAfter: 0, greaterInterval: 0 });
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(3);
    const c = await campaign({ contactListId: list.id, whatsappId: w });
    await Promise.all([runCampaignLoop(deps, w), runCampaignLoop(deps, w), runCampaignLoop(deps, w)]);
    expect((await shippingsOf(c.id)).filter((r) => r.status === 'sent')).toHaveLength(1);
    await drain(w);
    expect((await shippingsOf(c.id)).every((r) => r.status === 'sent')).toBe(true);
    await settings({ messageInterval: 0 });
  });

  it('runs twice at once without sending anyone twice', async () => {
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(20);
    const c = await campaign({ contactListId: list.id, whatsappId: w });
    // Three loops of the connection at once, round after round, on a clock that stands still: only
    // the claims keep them apart. (`drain` would move the shared clock to one loop's next job while
    // another is still sending, past its claims' lease: the next test is that case.)
    for (let round = 0; round < 5 && (await statusOf(c.id)) !== 'FINALIZADA'; round++)
      await Promise.all([runCampaignLoop(deps, w), runCampaignLoop(deps, w), runCampaignLoop(deps, w)]);
    await expectEachSentOnce(w, list.numbers);
    expect((await shippingsOf(c.id)).every((r) => r.attempts === 1)).toBe(true);
    expect(await statusOf(c.id)).toBe('FINALIZADA');
  });

  it('a sender whose claims outlived their lease sends none of those still waiting in its batch', async () => {
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(11);
    const c = await campaign({ contactListId: list.id, whatsappId: w });
    // An eleventh recipient waits for a retry in an hour: the campaign stays running throughout.
    const waiting = (await shippingsOf(c.id))[10];
    await deps.db
      .update(campaignShippings)
      .set({ retryAt: new Date(nowMs + 3_600_000) })
      .where(eq(campaignShippings.id, waiting.id));
    // The first sender claims the other ten and stalls in its first sends (eight at a time)…
    const channels = server.deps.channels;
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let stalled = 0;
    let allStalled = () => {};
    const eightStalled = new Promise<void>((resolve) => {
      allStalled = resolve;
    });
    const stalling: CampaignDeps = {
      ...deps,
      channels: {
        ...channels,
        get: (id) => {
          const channel = channels.get(id);
          return {
            ...channel,
            sendText: async (to, body, opts) => {
              if (++stalled === 8) allStalled();
              await gate;
              return channel.sendText(to, body, opts);
            },
          };
        },
      },
    };
    const first = runCampaignLoop(stalling, w);
    await eightStalled;
    // …past the lease: the claims count as dead, and another loop sends all ten.
    nowMs += 2 * 60_000 + 1;
    await runCampaignLoop(deps, w);
    expect((await shippingsOf(c.id)).map((r) => r.status)).toEqual([...Array(10).fill('sent'), 'pending']);
    open();
    await first;
    // The eight in flight when their lease ran out went again under their ids (the phone shows each
    // once); the two still waiting in the stalled batch were not sent by it.
    const sends = [];
    for (const number of list.numbers.slice(0, 10))
      sends.push((await phoneOf(server, t.admin, w, number)).map((m) => m.sends));
    expect(sends).toEqual([...Array(8).fill([2]), [1], [1]]);
    expect(await statusOf(c.id)).toBe('EM_ANDAMENTO');
    expect((await call(t.admin, 'POST', `/campaigns/${c.id}/cancel`)).json().status).toBe('CANCELADA');
  });

  it('stops at a cancel and sends only the rest after a restart', async () => {
    await settings({ messageInterval: 5 });
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(6);
    const c = await campaign({ contactListId: list.id, whatsappId: w });
    for (let i = 0; i < 3; i++) {
      kicks.length = 0;
      await runCampaignLoop(deps, w);
      nowMs = (kicks.at(-1) as Date).getTime();
    }
    expect((await call(t.admin, 'POST', `/campaigns/${c.id}/cancel`)).json().status).toBe('CANCELADA');
    await drain(w);
    const sentBefore = (await shippingsOf(c.id)).filter((r) => r.status === 'sent').length;
    expect(sentBefore).toBe(3);
    expect((await call(t.admin, 'POST', `/campaigns/${c.id}/restart`)).json().status).toBe('EM_ANDAMENTO');
    await drain(w);
    await expectEachSentOnce(w, list.numbers);
    expect(await statusOf(c.id)).toBe('FINALIZADA');
    await settings({ messageInterval: 0 });
  });

  it('pauses while the connection is down and goes on, sending only the rest, once it is back', async () => {
    await settings({ messageInterval: 5, longerIntervalAfter: 0, greaterInterval: 0 });
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(4);
    const c = await campaign({ contactListId: list.id, whatsappId: w });
    const sentCount = async () => (await shippingsOf(c.id)).filter((r) => r.status === 'sent').length;
    kicks.length = 0;
    await runCampaignLoop(deps, w);
    nowMs = (kicks.at(-1) as Date).getTime();
    expect(await sentCount()).toBe(1);

    // The session drops between the claim and the send: the recipient goes back, no attempt spent,
    // and the loop stops instead of scheduling itself.
    const channels = server.deps.channels;
    const dropped: CampaignDeps = {
      ...deps,
      channels: {
        ...channels,
        get: () => {
          throw new AppError('ERR_WAPP_NOT_INITIALIZED');
        },
      },
    };
    kicks.length = 0;
    await runCampaignLoop(dropped, w);
    expect(kicks).toEqual([]);
    const interrupted = (await shippingsOf(c.id))[1];
    expect(interrupted).toMatchObject({ status: 'pending', attempts: 0, claimedAt: null });

    // The phone logs out: the loop finds the connection down, sends nothing and does not spin.
    expect((await call(t.admin, 'DELETE', `/whatsappsession/${w}`)).statusCode).toBe(200);
    nowMs += 60_000;
    kicks.length = 0;
    await runCampaignLoop(deps, w);
    expect(kicks).toEqual([]);
    expect(await sentCount()).toBe(1);
    expect(await statusOf(c.id)).toBe('EM_ANDAMENTO');

    // Connected again: the connection's own event wakes its campaign loop.
    const jobs = vi.spyOn(server.deps.jobs, 'send');
    try {
      await call(t.admin, 'POST', `/whatsappsession/${w}`);
      expect((await call(t.admin, 'POST', `/sandbox/${w}/scan`)).statusCode).toBe(200);
      expect(jobs).toHaveBeenCalledWith(
        CAMPAIGN_SEND_QUEUE,
        { whatsappId: w },
        expect.objectContaining({ singletonKey: `campaign-connection:${w}` }),
      );
    } finally {
      jobs.mockRestore();
    }
    await drain(w);
    await expectEachSentOnce(w, list.numbers);
    expect((await shippingsOf(c.id)).map((r) => r.attempts)).toEqual([1, 1, 1, 1]);
    expect(await statusOf(c.id)).toBe('FINALIZADA');
    await settings({ messageInterval: 0 });
  });

  /** A running campaign in confirmation mode to `n` numbers, its requests sent. */
  async function confirmingCampaign(n: number, confirmationMessage1: string, message1: string) {
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(n);
    const c = await campaign({
      contactListId: list.id,
      whatsappId: w,
      confirmation: true,
      confirmationMessage1,
      message1,
    });
    await drain(w);
    return { w, list, c };
  }

  it('asks first in confirmation mode: only "sim" releases the message', async () => {
    const { w, list, c } = await confirmingCampaign(
      2,
      'Posso enviar a oferta, {nome}? Responda SIM',
      'A oferta: 10% off',
    );
    const [yes, maybe] = list.numbers;
    expect((await phoneOf(server, t.admin, w, yes)).map((m) => m.body)).toEqual([
      'Posso enviar a oferta, Pessoa 0? Responda SIM',
    ]);
    expect((await shippingsOf(c.id)).map((r) => r.status)).toEqual(['confirming', 'confirming']);
    await contactWrites(server, t.admin, w, { number: maybe, name: 'Talvez', body: 'talvez depois' });
    await contactWrites(server, t.admin, w, { number: yes, name: 'Sim', body: 'Sím!' });
    await drain(w);
    expect((await phoneOf(server, t.admin, w, yes)).map((m) => m.body)).toContain('A oferta: 10% off');
    expect(await phoneOf(server, t.admin, w, maybe)).toHaveLength(1);
    const rows = await shippingsOf(c.id);
    expect(rows.map((r) => [r.status, r.confirmation])).toEqual([
      ['sent', true],
      ['confirming', false],
    ]);
    expect(rows[1].repliedAt).not.toBeNull();
    const report = (await call(t.admin, 'GET', `/campaigns/${c.id}`)).json() as Campaign;
    expect(report.counts).toMatchObject({ confirmationRequested: 2, confirmed: 1 });
    expect(report.status).toBe('EM_ANDAMENTO');
  });

  it('a batch of replies: answers and confirmations one statement, opt-outs another; a number that opts out ends skipped, even after its "sim"', async () => {
    const { list, c } = await confirmingCampaign(3, 'Posso enviar?', 'A oferta');
    const [yes, leaves, changesMind] = list.numbers;
    const sent = await recordStatements(server.deps.database.db, () =>
      onCampaignReplies(deps, t.companyId, [
        { number: yes, body: 'sim', fromMe: false },
        { number: leaves, body: 'SAIR', fromMe: false },
        { number: changesMind, body: 'ok', fromMe: false },
        { number: changesMind, body: 'sair', fromMe: false },
      ]),
    );
    const updates = sent.filter((s) => /^update "campaign_shippings"/i.test(s.text));
    // Answered and released together, then skipped (both opt-outs).
    expect(updates).toHaveLength(2);
    const byNumber = new Map((await shippingsOf(c.id)).map((r) => [r.number, r]));
    expect(byNumber.get(yes)).toMatchObject({ status: 'pending', confirmation: true });
    expect(byNumber.get(leaves)).toMatchObject({ status: 'skipped', reason: 'opted_out' });
    expect(byNumber.get(changesMind)).toMatchObject({ status: 'skipped', reason: 'opted_out' });
    for (const r of byNumber.values()) expect(r.repliedAt).not.toBeNull();
  });

  it('moves recipients forward on acks and never back', async () => {
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(1);
    const c = await campaign({ contactListId: list.id, whatsappId: w });
    await drain(w);
    const [row] = await shippingsOf(c.id);
    expect(row).toMatchObject({ status: 'sent', deliveredAt: null });
    const phone = server.deps.channels.sandbox(w);
    await phone.ack(row.providerId as string, 3);
    await phone.ack(row.providerId as string, 2);
    const [after] = await shippingsOf(c.id);
    expect(after.status).toBe('read');
    expect(after.deliveredAt).not.toBeNull();
    expect(after.readAt).not.toBeNull();
  });

  it('keeps an ack that arrives before the send is written (the file list was still going)', async () => {
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(1);
    const c = await campaign({ contactListId: list.id, whatsappId: w });
    const channels = server.deps.channels;
    const phone = channels.sandbox(w);
    const racing: CampaignDeps = {
      ...deps,
      channels: {
        ...channels,
        get: (id) => {
          const channel = channels.get(id);
          return {
            ...channel,
            sendText: async (to, body, opts) => {
              const ref = await channel.sendText(to, body, opts);
              // The phone acks at once, before the sender has written `sent`.
              expect(await phone.ack(ref.providerId, 2)).toBe(true);
              return ref;
            },
          };
        },
      },
    };
    await runCampaignLoop(racing, w);
    const [row] = await shippingsOf(c.id);
    expect(row.status).toBe('delivered');
    expect(row.deliveredAt).not.toBeNull();
  });

  it('backs off on Graph rate limits and fails at once on an undeliverable message', async () => {
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(2);
    const c = await campaign({ contactListId: list.id, whatsappId: w });
    const graphError = (code: number) =>
      Object.assign(new AppError('ERR_SENDING_WAPP_MSG'), {
        cause: new GraphError(400, JSON.stringify({ error: { code } })),
      });
    const channels = server.deps.channels;
    const refusing: CampaignDeps = {
      ...deps,
      channels: {
        ...channels,
        get: (id) => ({
          ...channels.get(id),
          sendText: async (to) => {
            throw graphError(to === list.numbers[0] ? 130429 : 131049);
          },
        }),
      },
    };
    for (const row of await shippingsOf(c.id)) {
      await deps.db
        .update(campaignShippings)
        .set({ status: 'sending', attempts: 1 })
        .where(eq(campaignShippings.id, row.id));
      await sendShipping(refusing, { ...row, status: 'sending', attempts: 1 }, 'sandbox', {
        now: () => new Date(nowMs),
        random: () => 0.5,
      });
    }
    const [limited, undeliverable] = await shippingsOf(c.id);
    expect(limited).toMatchObject({ status: 'pending', reason: 'graph:130429' });
    expect((limited.retryAt as Date).getTime()).toBeGreaterThan(nowMs);
    expect(undeliverable).toMatchObject({ status: 'failed', reason: 'graph:131049' });
  });

  it('skips Cloud API recipients outside the 24-hour window, sends those inside', async () => {
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(2);
    await contactWrites(server, t.admin, w, { number: list.numbers[1], name: 'Escreveu hoje', body: 'oi' });
    const c = await campaign({ contactListId: list.id, whatsappId: w });
    const { sql } = await import('drizzle-orm');
    for (const row of await shippingsOf(c.id)) {
      await deps.db.execute(sql`update campaign_shippings set status = 'sending' where id = ${row.id}`);
      await sendShipping(deps, { ...row, status: 'sending' }, 'cloud', deps.clock);
    }
    expect((await shippingsOf(c.id)).map((r) => [r.status, r.reason])).toEqual([
      ['skipped', 'window_closed'],
      ['sent', null],
    ]);
  });
});

describe('on a Cloud API connection (a fake Graph API)', () => {
  async function cloudConnection() {
    const created = await call(t.admin, 'POST', '/whatsapp', fakeGraphConnection(`Cloud ${++seq}`));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    await call(t.admin, 'POST', `/whatsappsession/${id}`);
    expect((await call(t.admin, 'GET', `/whatsapp/${id}`)).json().status).toBe('CONNECTED');
    return id;
  }

  it('sends the approved template, variables rendered, to recipients outside the 24-hour window', async () => {
    await settings({
      messageInterval: 0,
      longerIntervalAfter: 0,
      greaterInterval: 0,
      variables: [{ key: 'cupom', value: 'BF10' }],
    });
    const w = await cloudConnection();
    const list = await listOf(3);
    graph.refuse(list.numbers[2], 131049);
    const c = await campaign({
      contactListId: list.id,
      whatsappId: w,
      message1: 'Texto livre: fora da janela não pode ir',
      templateName: 'oferta_black_friday',
      templateLanguage: 'pt_BR',
      templateVariables: ['{nome}', '{cupom}'],
    });
    await drain(w);
    // Recipients are sent to several at a time: in the order the list gives them, not the order they left.
    const sent = graph.messages
      .filter((m) => list.numbers.includes(String(m.to)))
      .sort((x, y) => list.numbers.indexOf(String(x.to)) - list.numbers.indexOf(String(y.to)));
    expect(sent).toEqual(
      list.numbers.slice(0, 2).map((number, i) => ({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: number,
        type: 'template',
        template: {
          name: 'oferta_black_friday',
          language: { code: 'pt_BR' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: `Pessoa ${i}` },
                { type: 'text', text: 'BF10' },
              ],
            },
          ],
        },
      })),
    );
    const rows = await shippingsOf(c.id);
    expect(rows.map((r) => [r.status, r.reason, r.messageIndex])).toEqual([
      ['sent', null, null],
      ['sent', null, null],
      ['failed', 'graph:131049', null],
    ]);
    // The id the Graph API gave is what its status webhooks will name.
    for (const row of rows.slice(0, 2)) expect(row.providerId).toMatch(/^wamid\.FAKE\d+$/);
    expect(await statusOf(c.id)).toBe('FINALIZADA');
    await settings({ variables: [] });
  });
});

describe('tickets', () => {
  it('are left alone by campaign sends: none opened, reopened, closed or written to until the contact answers', async () => {
    await settings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(3);
    const [stranger, talking, done] = list.numbers;
    const ticketOf = async (number: string) =>
      (await call(t.admin, 'GET', `/tickets?searchParam=${number}&showAll=true`)).json().tickets[0];
    // One recipient is talking to an agent, one was served and closed, one never wrote.
    await contactWrites(server, t.admin, w, { number: talking, name: 'Em conversa', body: 'oi' });
    await contactWrites(server, t.admin, w, { number: done, name: 'Já atendido', body: 'oi' });
    const open = await call(t.admin, 'PUT', `/tickets/${(await ticketOf(talking)).id}`, {
      status: 'open',
      userId: t.admin.user.id,
    });
    expect(open.statusCode, open.body).toBe(200);
    const closed = await call(t.admin, 'PUT', `/tickets/${(await ticketOf(done)).id}`, { status: 'closed' });
    expect(closed.statusCode, closed.body).toBe(200);
    const db = deps.db;
    const snapshot = async () => ({
      tickets: await db.select().from(tickets).where(eq(tickets.companyId, t.companyId)).orderBy(tickets.id),
      messages: (await db.select({ n: count() }).from(messages).where(eq(messages.companyId, t.companyId)))[0].n,
      contacts: (await db.select({ n: count() }).from(contacts).where(eq(contacts.companyId, t.companyId)))[0].n,
    });
    const before = await snapshot();

    const c = await campaign({ contactListId: list.id, whatsappId: w, message1: 'Promoção para {nome}' });
    await drain(w);
    await expectEachSentOnce(w, list.numbers);
    expect(await statusOf(c.id)).toBe('FINALIZADA');
    expect(await snapshot()).toEqual(before);

    // The answer goes through the ordinary pipeline: it opens the ticket and is attributed to the campaign.
    await contactWrites(server, t.admin, w, { number: stranger, name: 'Novo', body: 'Quero saber mais' });
    expect(await ticketOf(stranger)).toMatchObject({ status: 'pending', contact: { number: stranger } });
    expect((await shippingsOf(c.id))[0].repliedAt).not.toBeNull();
  });
});

describe('after a restart', () => {
  it('starts what came due while down, releases dead claims, and leaves campaigns over three days late', async () => {
    const w = await connectedSandbox(server, t.admin);
    const list = await listOf(2);
    const due = await campaign({ contactListId: list.id, whatsappId: w, scheduledAt: '2099-01-01 10:00:00' });
    const stale = await campaign({ contactListId: list.id, whatsappId: w, scheduledAt: '2099-01-01 10:00:00' });
    await deps.db
      .update(campaigns)
      .set({ scheduledAt: new Date(nowMs - 3_600_000) })
      .where(eq(campaigns.id, due.id));
    await deps.db
      .update(campaigns)
      .set({ scheduledAt: new Date(nowMs - 4 * 24 * 3_600_000) })
      .where(eq(campaigns.id, stale.id));
    await tickCampaigns(deps);
    expect(await statusOf(due.id)).toBe('EM_ANDAMENTO');
    expect(await statusOf(stale.id)).toBe('INATIVA');
    expect(kicks).toContainEqual(undefined);

    // A sender died holding a claim: the row goes back to pending after the lease, and is sent once.
    const [first] = await shippingsOf(due.id);
    await deps.db
      .update(campaignShippings)
      .set({ status: 'sending', claimedAt: new Date(nowMs - 10 * 60_000) })
      .where(eq(campaignShippings.id, first.id));
    await tickCampaigns(deps);
    await drain(w);
    await expectEachSentOnce(w, list.numbers);
    expect(await statusOf(due.id)).toBe('FINALIZADA');
  });
});
