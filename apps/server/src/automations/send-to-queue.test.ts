import { companyEvent } from '@balcao/shared';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  type Session,
  type Tenant,
  type TestServer,
} from '../../test/harness.js';
import { connectedSandbox, contactWrites } from '../../test/sandbox-helpers.js';
import { whatsapps } from '../modules/whatsapp/whatsapp.schema.js';
import { sendWaitingToQueue } from './send-to-queue.js';

/** `timeSendQueue`/`sendIdQueue`: the periodic move of waiting tickets to a queue, run with a given clock. */

let server: TestServer;
let t: Tenant;
let other: Tenant;
let socket: Socket;
let seq = 0;

beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
  t = await createTenant(server);
  other = await createTenant(server);
});
afterAll(async () => {
  socket?.close();
  await server.close();
});

function call(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

async function queue(tenant: Tenant, name: string): Promise<number> {
  const res = await call(tenant.admin, 'POST', '/queue', { name, color: `#${(0x400000 + ++seq).toString(16)}` });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** A contact writes on the connection; its (pending, queueless) ticket. */
async function waiting(tenant: Tenant, whatsappId: number) {
  const number = `55119${String(++seq).padStart(8, '0')}`;
  await contactWrites(server, tenant.admin, whatsappId, { number, name: 'Ana', body: 'oi' });
  const res = await call(tenant.admin, 'GET', `/tickets?showAll=true&searchParam=${number}`);
  return res.json().tickets[0] as { id: number };
}

async function ticket(tenant: Tenant, id: number) {
  return (await call(tenant.admin, 'GET', `/tickets/${id}`)).json() as {
    queueId: number | null;
    userId: number | null;
    status: string;
  };
}

const minutes = (n: number) => new Date(Date.now() + n * 60_000);
/** One run of the job with the clock `n` minutes ahead (the tickets were queued in real time). */
const run = (n: number) =>
  sendWaitingToQueue({ db: server.deps.database.db, realtime: server.deps.realtime }, minutes(n));

describe('send to queue after a wait', () => {
  it('moves waiting tickets once, tells the queue agents, and leaves the others alone', async () => {
    const q = await queue(t, 'Triagem');
    const taken = await queue(t, 'Outra');
    await call(t.admin, 'PUT', `/users/${t.user.user.id}`, { queueIds: [q] });
    socket = await connectSocket(server, t.user.token);
    const w = await connectedSandbox(server, t.admin, { timeSendQueue: 5, sendIdQueue: q });

    const due = await waiting(t, w);
    const withUser = await waiting(t, w);
    expect(
      (await call(t.admin, 'PUT', `/tickets/${withUser.id}`, { status: 'open', userId: t.admin.user.id })).statusCode,
    ).toBe(200);
    const withQueue = await waiting(t, w);
    expect((await call(t.admin, 'PUT', `/tickets/${withQueue.id}`, { queueId: taken })).statusCode).toBe(200);

    // Younger than the wait: nothing moves.
    await run(3);
    expect(await ticket(t, due.id)).toMatchObject({ queueId: null, status: 'pending' });

    const heard = eventWhere<{ action: string; ticket: { id: number; queueId: number | null } }>(
      socket,
      companyEvent.ticket(t.companyId),
      (e) => e.action === 'update' && e.ticket?.id === due.id && e.ticket.queueId === q,
    );
    expect(await run(6)).toBeGreaterThanOrEqual(1);
    await heard;
    expect(await ticket(t, due.id)).toMatchObject({ queueId: q, userId: null, status: 'pending' });
    expect(await ticket(t, withUser.id)).toMatchObject({ queueId: null, userId: t.admin.user.id });
    expect(await ticket(t, withQueue.id)).toMatchObject({ queueId: taken });

    // Two concurrent runs move a newly waiting ticket once; a later run moves nothing again.
    const later = await waiting(t, w);
    const [a, b] = await Promise.all([run(6), run(6)]);
    expect(a + b).toBe(1);
    expect(await ticket(t, later.id)).toMatchObject({ queueId: q });
    expect(await run(60)).toBe(0);
  });

  it('never uses a queue of another company (or a deleted one)', async () => {
    const foreign = await queue(other, 'Alheia');
    // The API refuses to name it; a row that names it anyway (written before that check) is ignored.
    const refused = await call(t.admin, 'POST', '/whatsapp', {
      name: 'Alheia',
      provider: 'sandbox',
      sendIdQueue: foreign,
    });
    expect(refused.json()).toMatchObject({ error: 'ERR_NO_QUEUE_FOUND' });
    const w = await connectedSandbox(server, t.admin, { timeSendQueue: 1 });
    await server.deps.database.db.update(whatsapps).set({ sendIdQueue: foreign }).where(eq(whatsapps.id, w));
    const tk = await waiting(t, w);
    await run(120);
    expect(await ticket(t, tk.id)).toMatchObject({ queueId: null, status: 'pending' });

    const gone = await queue(t, 'Apagada');
    const w2 = await connectedSandbox(server, t.admin, { timeSendQueue: 1, sendIdQueue: gone });
    expect((await call(t.admin, 'DELETE', `/queue/${gone}`)).statusCode).toBe(200);
    const tk2 = await waiting(t, w2);
    await run(120);
    expect(await ticket(t, tk2.id)).toMatchObject({ queueId: null, status: 'pending' });
  });
});
