import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type Tenant, type TestServer } from '../../../test/harness.js';
import { buildWebHost } from './web-host.js';

/** Security headers on the API and the web client (DOMAIN §11). */

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: unknown): Map<string, string[]> {
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name, values]),
  );
}

function expectCommonHeaders(headers: Record<string, unknown>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(directives(headers['content-security-policy']).get('frame-ancestors')).toEqual(["'none'"]);
}

describe('the API', () => {
  let server: TestServer;
  let t: Tenant;
  beforeAll(async () => {
    server = await createTestServer({ LOGIN_LIMIT_IP: '1000' });
    t = await createTenant(server);
  });
  afterAll(() => server.close());

  it('lets a reply load, run and frame nothing, and no cache keep it', async () => {
    const replies = [
      await server.call('GET', '/auth/me', t.admin),
      await server.call('GET', `/users/${t.user.user.id}`, t.admin),
      // (A login ends the user's other sessions: the plain user's, which nothing below uses.)
      await server.call('POST', '/auth/login', undefined, { email: t.user.user.email, password: t.userPassword }),
      await server.call('GET', '/users'),
      await server.call('GET', '/no/such/route', t.admin),
    ];
    // Answers and refusals alike (no token, unknown route).
    expect(replies.map((r) => r.statusCode < 400)).toEqual([true, true, true, false, false]);
    for (const res of replies) {
      expectCommonHeaders(res.headers);
      expect(directives(res.headers['content-security-policy']).get('default-src')).toEqual(["'none'"]);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it("media keep their own private caching, under the API's policy", async () => {
    const { key } = await server.deps.storage.put(t.companyId, Buffer.from('<svg onload="alert(1)"/>'), 'a.png');
    const res = await server.call('GET', `/media/${key}`, t.admin);
    expect(res.statusCode).toBe(200);
    expectCommonHeaders(res.headers);
    expect(directives(res.headers['content-security-policy']).get('default-src')).toEqual(["'none'"]);
    expect(res.headers['cache-control']).toBe('private, max-age=3600');
  });

  it('the documentation page may run its own bundle, still over plain HTTP', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api-docs' });
    expect(res.body).toContain('swagger-ui-bundle.js');
    expect(res.statusCode).toBe(200);
    const csp = directives(res.headers['content-security-policy']);
    expect(csp.get('script-src')).toContain("'self'");
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});

describe('the web client host', () => {
  let dist: string;
  let web: FastifyInstance;
  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), 'balcao-dist-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><script src="/env.js"></script>');
    web = await buildWebHost({ distDir: dist, backendUrl: 'https://api.example.test:8443' });
  });
  afterAll(async () => {
    await web.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('allows what the built client needs: its scripts, the API and its websocket, MUI styles, blobs', async () => {
    for (const url of ['/', '/tickets/some-uuid', '/env.js']) {
      const res = await web.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expectCommonHeaders(res.headers);
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'", 'blob:']);
      expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp.get('connect-src')).toEqual([
        "'self'",
        'https://api.example.test:8443',
        'wss://api.example.test:8443',
      ]);
      expect(csp.get('img-src')).toEqual(expect.arrayContaining(['blob:', 'data:', 'https://api.example.test:8443']));
      expect(csp.get('media-src')).toEqual(expect.arrayContaining(['blob:', 'https://api.example.test:8443']));
      expect(csp.get('object-src')).toEqual(["'none'"]);
      // Help videos: thumbnails from i.ytimg.com (any https image), the player from youtube-nocookie only.
      expect(csp.get('img-src')).toContain('https:');
      expect(csp.get('frame-src')).toEqual(['https://www.youtube-nocookie.com']);
    }
  });

  it('keeps /env.js out of caches', async () => {
    const res = await web.inject({ method: 'GET', url: '/env.js' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('https://api.example.test:8443');
  });
});
