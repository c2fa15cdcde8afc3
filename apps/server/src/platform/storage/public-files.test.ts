import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../../test/harness.js';
import { connectedSandbox, contactWrites } from '../../../test/sandbox-helpers.js';

/**
 * `/public/{path}` (spec part 1 §7) serves the files that are public by design, stored under the
 * public prefix, to anyone; no other stored file, whoever asks and however the path is spelt.
 */

let server: TestServer;
let a: Tenant;
let b: Tenant;
let logoPath: string;
let logo: Buffer;
/** The bytes of B's received image. */
let media: Buffer;
/** Private keys of company B: a received image and the admin's avatar. */
let mediaKey: string;
let avatarKey: string;

const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });

async function avatarForm(png: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') as string },
  };
}

beforeAll(async () => {
  server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
  a = await createTenant(server);
  b = await createTenant(server);
  logo = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#6a1b9a' } })
    .png()
    .toBuffer();
  logoPath = (await server.deps.storage.put(b.companyId, logo, 'logo.png', { public: true })).key.replace(
    /^public\//,
    '',
  );
  media = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00897b' } })
    .png()
    .toBuffer();
  const whatsappId = await connectedSandbox(server, b.admin);
  await contactWrites(server, b.admin, whatsappId, {
    number: '5511966660001',
    body: 'foto',
    media: { fileName: 'foto.png', mimetype: 'image/png', base64: media.toString('base64') },
  });
  const [ticket] = (await server.call('GET', '/tickets?showAll=true', b.admin)).json().tickets;
  const [message] = (await server.call('GET', `/messages/${ticket.id}`, b.admin)).json().messages;
  mediaKey = String(message.mediaUrl).replace(/^\/media\//, '');
  const { payload, headers } = await avatarForm(logo);
  const avatar = await server.app.inject({
    method: 'POST',
    url: `/users/${b.admin.user.id}/avatar`,
    payload,
    headers: { ...b.admin.headers, ...headers },
  });
  expect(avatar.statusCode, avatar.body).toBe(200);
  avatarKey = String(avatar.json().avatar).replace(/^\/media\//, '');
  // What an escaping path would reach: a file beside the storage root.
  await writeFile(path.join(server.deps.config.DATA_DIR, 'secret.txt'), 'do not serve');
});
afterAll(() => server?.close());

describe('GET /public/{path}', () => {
  it('serves a public file to anyone, cacheable for good, as the image it is', async () => {
    for (const headers of [{}, a.user.headers]) {
      const res = await get(`/public/${logoPath}`, headers);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(logo)).toBe(true);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-disposition']).toBe('inline');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('is 404 for every private key (media, avatars), even to their own company', async () => {
    for (const key of [mediaKey, avatarKey]) {
      // The owner reads them where they live…
      expect((await get(`/media/${key}`, b.admin.headers)).statusCode).toBe(200);
      // …never through /public.
      for (const headers of [{}, b.admin.headers, a.admin.headers]) {
        const res = await get(`/public/${key}`, headers);
        expect(res.statusCode, key).toBe(404);
        expect(res.json().error).toBe('ERR_MEDIA_NOT_FOUND');
      }
    }
    expect((await get(`/public/${b.companyId}/00000000-0000-0000-0000-000000000000.png`)).statusCode).toBe(404);
  });

  it('refuses path traversal, plain and encoded', async () => {
    const [companyId, file] = mediaKey.split('/');
    const urls = [
      `/public/../media/${mediaKey}`,
      `/public/%2e%2e/${mediaKey}`,
      `/public/..%2F${companyId}/${file}`,
      `/public/${companyId}/..%2F..%2Fsecret.txt`,
      `/public/${companyId}/%2e%2e%2f%2e%2e%2fsecret.txt`,
      `/public/..%2F..%2F/secret.txt`,
      '/public/%2e%2e/secret.txt',
      '/public/../../secret.txt',
      `/public/public/${logoPath}`,
      `/public/${companyId}%2F${file}`,
      `/public/${logoPath}%00.png`,
      `/public/${logoPath.replace('/', '%5C')}`,
      `/public/${companyId}/${file}/..`,
      `/public/./${mediaKey}`,
    ];
    // Through the router as a client would send them (dot segments resolved), by nobody and by another company…
    for (const url of urls)
      for (const headers of [{}, a.admin.headers]) {
        const res = await get(url, headers);
        expect(res.statusCode, `${url} → ${res.statusCode}`).toBeGreaterThanOrEqual(400);
        expect(res.body).not.toContain('do not serve');
        expect(res.rawPayload.equals(media)).toBe(false);
      }
    // …and raw, dot segments and all, as an attacker's own client may send them.
    const base = new URL(await server.listen());
    for (const url of urls) {
      const reply = await rawGet(base, url);
      expect(reply, url).toMatch(/^HTTP\/1\.1 4\d\d /);
      expect(reply).not.toContain('do not serve');
      expect(reply).not.toContain('image/png');
    }
  });
});

/** One GET with the path exactly as given (fetch and inject would resolve `..` first). */
function rawGet(base: URL, url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(base.port), base.hostname, () => {
      socket.write(`GET ${url} HTTP/1.1\r\nHost: ${base.host}\r\nConnection: close\r\n\r\n`);
    });
    let reply = '';
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(reply));
    socket.on('error', reject);
  });
}
