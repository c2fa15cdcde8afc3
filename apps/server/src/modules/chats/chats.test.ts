import { type Chat, type ChatMessage, type ChatRoomEvent, type ChatUserEvent, companyEvent } from '@balcao/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  login,
  recordEvents,
  type Session,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

let server: TestServer;
let t: Tenant;
/** A third user of the same company who belongs to no chat below. */
let outsider: Session;
let foreign: Tenant;

beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
  t = await createTenant(server);
  foreign = await createTenant(server);
  outsider = await newUser('Outsider');
});
afterAll(() => server.close());

function call(session: Session, method: Method, url: string, payload?: object) {
  return server.app.inject({ method, url, payload, headers: session.headers });
}

let seq = 0;
async function newUser(name: string): Promise<Session> {
  const email = `chat-${++seq}@chats.test`;
  const res = await call(t.admin, 'POST', '/users', { name, email, password: 'user-pass', profile: 'user' });
  expect(res.statusCode, res.body).toBe(201);
  return login(server, email, 'user-pass');
}

async function newChat(owner: Session, members: Session[], title = 'Equipe'): Promise<Chat> {
  const res = await call(owner, 'POST', '/chats', { title, users: members.map((m) => ({ id: m.user.id })) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const unreadsOf = (chat: Chat) => Object.fromEntries(chat.users.map((u) => [u.userId, u.unreads]));
const read = async (session: Session, id: number): Promise<Chat> => {
  const res = await call(session, 'GET', `/chats/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('chats and members', () => {
  it('the creator owns the chat and is a member; the list shows it to members only', async () => {
    const chat = await newChat(t.admin, [t.user], 'Suporte nível 2');
    expect(chat.ownerId).toBe(t.admin.user.id);
    expect(chat.users.map((u) => u.userId).sort()).toEqual([t.admin.user.id, t.user.user.id].sort());
    expect(chat.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const mine = (await call(t.user, 'GET', '/chats')).json();
    expect(mine.records.map((c: Chat) => c.id)).toContain(chat.id);
    const theirs = (await call(outsider, 'GET', '/chats')).json();
    expect(theirs.records.map((c: Chat) => c.id)).not.toContain(chat.id);
    expect((await call(t.user, 'GET', `/chats/${chat.uuid}`)).json().id).toBe(chat.id);
    expect((await call(outsider, 'GET', `/chats/${chat.uuid}`)).statusCode).toBe(404);
    const found = (await call(t.user, 'GET', '/chats?searchParam=NÍVEL')).json();
    expect(found.records.map((c: Chat) => c.id)).toEqual([chat.id]);
  });

  it('requires a title (spec message) and at least one user; another company’s user is not found', async () => {
    const noTitle = await call(t.admin, 'POST', '/chats', { title: '  ', users: [{ id: t.user.user.id }] });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.body).toContain('Por favor, preencha o título da conversa.');
    expect((await call(t.admin, 'POST', '/chats', { title: 'x', users: [] })).statusCode).toBe(400);
    const other = await call(t.admin, 'POST', '/chats', { title: 'x', users: [{ id: foreign.user.user.id }] });
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('ERR_NO_USER_FOUND');
    const before = (await call(foreign.user, 'GET', '/chats')).json();
    expect(before.count).toBe(0);
  });

  it('is ordered by last activity', async () => {
    const first = await newChat(t.admin, [t.user], 'Primeira');
    const second = await newChat(t.admin, [t.user], 'Segunda');
    let ids = (await call(t.user, 'GET', '/chats')).json().records.map((c: Chat) => c.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    await call(t.admin, 'POST', `/chats/${first.id}/messages`, { message: 'olá' });
    ids = (await call(t.user, 'GET', '/chats')).json().records.map((c: Chat) => c.id);
    expect(ids[0]).toBe(first.id);
  });
});

describe('a non-member (same company) learns nothing and changes nothing', () => {
  it('reads, posts, renames, deletes or marks read → 404, chat unchanged', async () => {
    const chat = await newChat(t.admin, [t.user], 'Privado');
    await call(t.user, 'POST', `/chats/${chat.id}/messages`, { message: 'segredo' });
    const before = {
      chat: await read(t.admin, chat.id),
      messages: (await call(t.admin, 'GET', `/chats/${chat.id}/messages`)).json(),
    };
    const attempts: [Method, string, object?][] = [
      ['GET', `/chats/${chat.id}`],
      ['GET', `/chats/${chat.uuid}`],
      ['GET', `/chats/${chat.id}/messages`],
      ['POST', `/chats/${chat.id}/messages`, { message: 'intruso' }],
      ['PUT', `/chats/${chat.id}`, { title: 'Invadido' }],
      ['PUT', `/chats/${chat.id}`, { users: [{ id: outsider.user.id }] }],
      ['DELETE', `/chats/${chat.id}`],
      ['POST', `/chats/${chat.id}/read`, { userId: t.admin.user.id }],
    ];
    for (const [method, url, body] of attempts) {
      const res = await call(outsider, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.body).not.toContain('segredo');
      expect(res.body).not.toContain('Privado');
    }
    expect({
      chat: await read(t.admin, chat.id),
      messages: (await call(t.admin, 'GET', `/chats/${chat.id}/messages`)).json(),
    }).toEqual(before);
  });

  it('an admin of the company who is not a member is refused like anyone else (404), listed nothing, changes nothing', async () => {
    const member = await newUser('Membro');
    const chat = await newChat(t.user, [member], 'Só nós dois');
    await call(member, 'POST', `/chats/${chat.id}/messages`, { message: 'confidencial' });
    const snapshot = async () => ({
      chat: await read(t.user, chat.id),
      messages: (await call(t.user, 'GET', `/chats/${chat.id}/messages`)).json(),
    });
    const before = await snapshot();
    const attempts: [Method, string, object?][] = [
      ['GET', `/chats/${chat.id}`],
      ['GET', `/chats/${chat.uuid}`],
      ['GET', `/chats/${chat.id}/messages`],
      ['POST', `/chats/${chat.id}/messages`, { message: 'do admin' }],
      ['PUT', `/chats/${chat.id}`, { title: 'Auditado' }],
      ['PUT', `/chats/${chat.id}`, { users: [{ id: t.admin.user.id }] }],
      ['DELETE', `/chats/${chat.id}`],
      ['POST', `/chats/${chat.id}/read`, { userId: member.user.id }],
    ];
    for (const [method, url, body] of attempts) {
      const res = await call(t.admin, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error).toBe('ERR_NO_CHAT_FOUND');
      expect(res.body).not.toContain('confidencial');
      expect(res.body).not.toContain('Só nós dois');
    }
    const listed = (await call(t.admin, 'GET', '/chats')).json();
    expect(listed.records.map((c: Chat) => c.id)).not.toContain(chat.id);
    const searched = (await call(t.admin, 'GET', `/chats?searchParam=${encodeURIComponent('nós dois')}`)).json();
    expect(searched).toMatchObject({ records: [], count: 0 });
    const after = await snapshot();
    expect(after).toEqual(before);
    expect(after.chat.users.map((u) => u.userId)).not.toContain(t.admin.user.id);
    expect(unreadsOf(after.chat)).toEqual({ [t.user.user.id]: 1, [member.user.id]: 0 });
  });

  it('a member who is not the owner may not rename, change members or delete (403)', async () => {
    const chat = await newChat(t.admin, [t.user], 'Do admin');
    const before = await read(t.admin, chat.id);
    expect((await call(t.user, 'PUT', `/chats/${chat.id}`, { title: 'Meu agora' })).statusCode).toBe(403);
    expect((await call(t.user, 'PUT', `/chats/${chat.id}`, { users: [{ id: outsider.user.id }] })).statusCode).toBe(
      403,
    );
    expect((await call(t.user, 'DELETE', `/chats/${chat.id}`)).statusCode).toBe(403);
    expect(await read(t.admin, chat.id)).toEqual(before);
    expect((await call(t.admin, 'PUT', `/chats/${chat.id}`, { title: 'Renomeado' })).json().title).toBe('Renomeado');
    expect((await call(t.admin, 'DELETE', `/chats/${chat.id}`)).statusCode).toBe(200);
    expect((await call(t.admin, 'GET', `/chats/${chat.id}`)).statusCode).toBe(404);
    expect((await call(t.user, 'GET', `/chats/${chat.id}/messages`)).statusCode).toBe(404);
  });
});

describe('messages and unread counters', () => {
  it('pages 20 from the newest, each page oldest first; blank messages are refused', async () => {
    const chat = await newChat(t.admin, [t.user], 'Paginação');
    for (let i = 1; i <= 25; i++) {
      expect((await call(t.admin, 'POST', `/chats/${chat.id}/messages`, { message: `m${i}` })).statusCode).toBe(201);
    }
    const one = (await call(t.user, 'GET', `/chats/${chat.id}/messages`)).json();
    expect(one.records.map((m: ChatMessage) => m.message)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 6}`));
    expect(one).toMatchObject({ count: 25, hasMore: true });
    expect(one.records[0].sender).toEqual({ id: t.admin.user.id, name: t.admin.user.name });
    const two = (await call(t.user, 'GET', `/chats/${chat.id}/messages?pageNumber=2`)).json();
    expect(two.records.map((m: ChatMessage) => m.message)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(two.hasMore).toBe(false);
    const blank = await call(t.admin, 'POST', `/chats/${chat.id}/messages`, { message: '   ' });
    expect(blank.statusCode).toBe(400);
    expect((await read(t.admin, chat.id)).lastMessage).toBe('m25');
  });

  it('50 concurrent messages count exactly for every other member; read clears the caller only', async () => {
    const third = await newUser('Terceiro');
    const chat = await newChat(t.admin, [t.user, third], 'Concorrência');
    const senders = [t.admin, t.user];
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(senders[i % 2], 'POST', `/chats/${chat.id}/messages`, { message: `c${i}` }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(201));
    const counts = unreadsOf(await read(t.admin, chat.id));
    expect(counts).toEqual({ [t.admin.user.id]: 25, [t.user.user.id]: 25, [third.user.id]: 50 });
    // The body names another member: only the caller's counter is cleared.
    const readRes = await call(third, 'POST', `/chats/${chat.id}/read`, { userId: t.user.user.id });
    expect(readRes.statusCode).toBe(200);
    expect(unreadsOf(await read(t.admin, chat.id))).toEqual({
      [t.admin.user.id]: 25,
      [t.user.user.id]: 25,
      [third.user.id]: 0,
    });
  });

  it('changing members keeps the counters of those who stay', async () => {
    const second = await newUser('Segundo');
    const third = await newUser('Terceira');
    const chat = await newChat(t.admin, [t.user, second], 'Membros');
    for (const m of ['a', 'b', 'c']) await call(t.admin, 'POST', `/chats/${chat.id}/messages`, { message: m });
    await call(second, 'POST', `/chats/${chat.id}/read`);
    const res = await call(t.admin, 'PUT', `/chats/${chat.id}`, {
      users: [{ id: t.user.user.id }, { id: third.user.id }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(unreadsOf(res.json())).toEqual({ [t.admin.user.id]: 0, [t.user.user.id]: 3, [third.user.id]: 0 });
    expect((await call(second, 'GET', `/chats/${chat.id}`)).statusCode).toBe(404);
    expect((await call(third, 'GET', `/chats/${chat.id}/messages`)).json().count).toBe(3);
  });
});

describe('live events reach the members only', () => {
  let sockets: Socket[] = [];
  afterAll(() => {
    for (const s of sockets) s.close();
  });

  it("a member's socket receives the message; a non-member's socket of the same company receives nothing", async () => {
    const [member, other] = await Promise.all([
      connectSocket(server, t.user.token),
      connectSocket(server, outsider.token),
    ]);
    sockets = [member, other];
    const otherSeen = recordEvents(other);
    const memberSeen = recordEvents(member);
    const created = eventWhere<ChatUserEvent>(
      member,
      companyEvent.chatUser(t.companyId, t.user.user.id),
      (p) => p.action === 'create' && p.record.title === 'Ao vivo',
    );
    const chat = await newChat(t.admin, [t.user], 'Ao vivo');
    await created;
    const arrived = eventWhere<ChatRoomEvent>(
      member,
      companyEvent.chatRoom(t.companyId, chat.id),
      (p) => p.message.message === 'psiu',
    );
    const unread = eventWhere<ChatUserEvent>(
      member,
      companyEvent.chatUser(t.companyId, t.user.user.id),
      (p) => p.action === 'update' && unreadsOf(p.record)[t.user.user.id] === 1,
    );
    await call(t.admin, 'POST', `/chats/${chat.id}/messages`, { message: 'psiu' });
    expect((await arrived).message.senderId).toBe(t.admin.user.id);
    await unread;
    const deleted = eventWhere<ChatUserEvent>(
      member,
      companyEvent.chatUser(t.companyId, t.user.user.id),
      (p) => p.action === 'delete' && p.id === chat.id,
    );
    await call(t.admin, 'DELETE', `/chats/${chat.id}`);
    await deleted;
    expect(otherSeen.filter((e) => e.event.includes('-chat'))).toEqual([]);
    expect(JSON.stringify(otherSeen)).not.toContain('psiu');
    // The member never hears another member's per-user channel.
    expect(memberSeen.filter((e) => e.event === companyEvent.chatUser(t.companyId, t.admin.user.id))).toEqual([]);
  });
});

describe('plan flag useInternalChat', () => {
  it('off → 403 for every route, whatever the body', async () => {
    const off = await createTenant(server, { plan: { useInternalChat: false } });
    const routes: [Method, string, object?][] = [
      ['GET', '/chats'],
      ['GET', '/chats/1'],
      ['POST', '/chats', { title: 'x', users: [{ id: off.user.user.id }] }],
      ['POST', '/chats', {}],
      ['PUT', '/chats/1', { title: 'x' }],
      ['DELETE', '/chats/1'],
      ['GET', '/chats/1/messages'],
      ['POST', '/chats/1/messages', { message: 'x' }],
      ['POST', '/chats/1/read'],
    ];
    for (const [method, url, body] of routes) {
      const res = await call(off.admin, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });
});
