import { AVATAR_MAX_BYTES, companyEvent } from '@balcao/shared';
import sharp from 'sharp';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  createTestServer,
  eventWhere,
  login,
  type Session,
  SUPER,
  type Tenant,
  type TestServer,
} from '../../../test/harness.js';

/**
 * Avatars (beyond the spec: POST / DELETE /users/{id}/avatar): PNG or JPEG by their bytes, squared on
 * the server, stored under a server key, shown to the company's members only, with the rule of PUT /users/{id}.
 */

let server: TestServer;
let a: Tenant;
let b: Tenant;
let su: Session;
/** An admin of the super user's own company. */
let platformAdmin: Session;
let socket: Socket;
beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  await server.listen();
  a = await createTenant(server);
  b = await createTenant(server);
  su = await login(server, SUPER.email, SUPER.password);
  const created = await server.call('POST', '/users', su, {
    name: 'Platform admin',
    email: 'platform-admin@avatar.test',
    password: 'admin-pass',
    profile: 'admin',
  });
  expect(created.statusCode, created.body).toBe(201);
  platformAdmin = await login(server, 'platform-admin@avatar.test', 'admin-pass');
  socket = await connectSocket(server, a.admin.token);
});
afterAll(async () => {
  socket?.close();
  await server?.close();
});

const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#7b1fa2' } });

async function upload(session: Session, userId: number, data: Buffer, name = 'me.png', type = 'image/png') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const request = new Request('http://local/', { method: 'POST', body: form });
  return server.app.inject({
    method: 'POST',
    url: `/users/${userId}/avatar`,
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { ...session.headers, 'content-type': request.headers.get('content-type') as string },
  });
}
const remove = (session: Session, userId: number) => server.call('DELETE', `/users/${userId}/avatar`, session);
const avatarOf = async (session: Session, userId: number) =>
  (await server.call('GET', `/users/${userId}`, session)).json().avatar as string | null;

describe('uploading an avatar', () => {
  it('a user sets their own: squared, stored under a server key, seen by colleagues, not by others', async () => {
    const updated = eventWhere<{ action: string; user: { id: number; avatar: string | null } }>(
      socket,
      companyEvent.user(a.companyId),
      (e) => e.action === 'update' && e.user.id === a.user.user.id && Boolean(e.user.avatar),
    );
    const res = await upload(a.user, a.user.user.id, await picture(800, 500).png().toBuffer(), '../../evil.php');
    expect(res.statusCode, res.body).toBe(200);
    const avatar = res.json().avatar as string;
    expect(avatar).toMatch(new RegExp(`^/media/${a.companyId}/[0-9a-f-]{36}\\.png$`));
    expect((await updated).user.avatar).toBe(avatar);
    expect(await avatarOf(a.admin, a.user.user.id)).toBe(avatar);

    // Colleagues read it (the admin here); another company and nobody do not.
    const file = await server.call('GET', avatar, a.admin);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    const meta = await sharp(file.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([256, 256]);
    expect((await server.call('GET', avatar, b.admin)).statusCode).toBe(404);
    expect((await server.call('GET', avatar)).statusCode).toBeGreaterThanOrEqual(401);
  });

  it('takes a JPEG too, and a new avatar replaces the old file', async () => {
    const first = (await upload(a.admin, a.admin.user.id, await picture(300, 300).png().toBuffer())).json().avatar;
    const res = await upload(
      a.admin,
      a.admin.user.id,
      await picture(400, 900).jpeg().toBuffer(),
      'me.jpg',
      'image/jpeg',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().avatar).toMatch(/\.jpg$/);
    expect((await server.call('GET', res.json().avatar, a.admin)).headers['content-type']).toBe('image/jpeg');
    expect((await server.call('GET', first, a.admin)).statusCode).toBe(404);
  });

  it('refuses what is not a PNG or JPEG by its bytes, whatever its name and type say', async () => {
    const before = await avatarOf(a.admin, a.user.user.id);
    for (const [data, name, type] of [
      [await picture(20, 20).gif().toBuffer(), 'me.png', 'image/png'],
      [await picture(20, 20).webp().toBuffer(), 'me.jpg', 'image/jpeg'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'me.png', 'image/png'],
      [Buffer.from('<?php system($_GET["c"]); ?>'), 'me.jpg', 'image/jpeg'],
      [Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('not a jpeg')]), 'me.jpg', 'image/jpeg'],
    ] as const) {
      const res = await upload(a.user, a.user.user.id, data, name, type);
      expect(res.statusCode, name).toBe(415);
      expect(res.json().error).toBe('ERR_INVALID_IMAGE');
    }
    expect(await avatarOf(a.admin, a.user.user.id)).toBe(before);
  });

  it('refuses a file over the limit with 413, and a form without a file with 400', async () => {
    const png = await picture(10, 10).png().toBuffer();
    const huge = Buffer.concat([png, Buffer.alloc(AVATAR_MAX_BYTES)]);
    expect((await upload(a.user, a.user.user.id, huge)).statusCode).toBe(413);
    const empty = await server.app.inject({
      method: 'POST',
      url: `/users/${a.user.user.id}/avatar`,
      payload: '--x\r\nContent-Disposition: form-data; name="other"\r\n\r\nv\r\n--x--\r\n',
      headers: { ...a.user.headers, 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('ERR_VALIDATION');
  });

  it('only the upload routes read a form: any other answers 415 and changes nothing', async () => {
    const form = '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nRenamed\r\n--x--\r\n';
    const res = await server.app.inject({
      method: 'PUT',
      url: `/users/${a.user.user.id}`,
      payload: form,
      headers: { ...a.user.headers, 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(res.statusCode).toBe(415);
    expect((await server.call('GET', `/users/${a.user.user.id}`, a.admin)).json().name).not.toBe('Renamed');
  });
});

describe('who may set whose avatar', () => {
  it('an admin sets and removes a colleague’s; a plain user only their own', async () => {
    const png = await picture(64, 64).png().toBuffer();
    const set = await upload(a.admin, a.user.user.id, png);
    expect(set.statusCode).toBe(200);
    const refused = await upload(a.user, a.admin.user.id, png);
    expect(refused.statusCode).toBe(403);
    expect((await remove(a.user, a.admin.user.id)).statusCode).toBe(403);
    const removed = await remove(a.admin, a.user.user.id);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().avatar).toBeNull();
    expect((await server.call('GET', set.json().avatar, a.admin)).statusCode).toBe(404);
    // Removing what is not there is harmless.
    expect((await remove(a.user, a.user.user.id)).statusCode).toBe(200);
  });

  it('another company’s user is not found, for its admin as for the super user', async () => {
    const png = await picture(64, 64).png().toBuffer();
    for (const session of [b.admin, b.user, su]) {
      expect([403, 404]).toContain((await upload(session, a.user.user.id, png)).statusCode);
      expect([403, 404]).toContain((await remove(session, a.admin.user.id)).statusCode);
    }
    expect((await upload(b.admin, a.user.user.id, png)).json().error).toBe('ERR_NO_USER_FOUND');
  });

  it('only a super user sets a super user’s avatar', async () => {
    const png = await picture(64, 64).png().toBuffer();
    expect((await upload(platformAdmin, su.user.id, png)).statusCode).toBe(403);
    expect((await remove(platformAdmin, su.user.id)).statusCode).toBe(403);
    expect((await upload(su, su.user.id, png)).statusCode).toBe(200);
    expect((await upload(su, platformAdmin.user.id, png)).statusCode).toBe(200);
  });

  it('a deleted user takes their avatar file along', async () => {
    const created = await server.call('POST', '/users', a.admin, {
      name: 'Leaving soon',
      email: 'leaving@avatar.test',
      password: 'secret-5',
    });
    const id = created.json().id as number;
    const avatar = (await upload(a.admin, id, await picture(32, 32).png().toBuffer())).json().avatar;
    expect((await server.call('GET', avatar, a.admin)).statusCode).toBe(200);
    expect((await server.call('DELETE', `/users/${id}`, a.admin)).statusCode).toBe(200);
    expect((await server.call('GET', avatar, a.admin)).statusCode).toBe(404);
  });
});
