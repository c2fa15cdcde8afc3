import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebHost } from './web-host.js';

/** The web host's compression and caching of the built client (issue 16). */

const INDEX = '<!doctype html><title>Balcão</title><script type="module" src="/assets/index-abc123.js"></script>';
const SCRIPT = `console.log(${JSON.stringify('Balcão '.repeat(200))});`;
const SECRET = 'not for the browser';

let root: string;
let web: FastifyInstance;

/** A built file with the `.br` and `.gz` siblings the web build writes. */
async function writeBuilt(dist: string, file: string, content: string) {
  const full = path.join(dist, file);
  await writeFile(full, content);
  await writeFile(`${full}.br`, brotliCompressSync(content));
  await writeFile(`${full}.gz`, gzipSync(content));
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'balcao-web-host-'));
  const dist = path.join(root, 'dist');
  await mkdir(path.join(dist, 'assets'), { recursive: true });
  await writeBuilt(dist, 'index.html', INDEX);
  await writeBuilt(dist, 'assets/index-abc123.js', SCRIPT);
  await writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(root, 'secret.txt'), SECRET);
  web = await buildWebHost({ distDir: dist, backendUrl: 'https://api.example.test' });
});

afterAll(async () => {
  await web.close();
  await rm(root, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  web.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('compression', () => {
  it('sends the brotli file when the browser accepts br', async () => {
    const res = await get('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the gzip file when the browser accepts only gzip', async () => {
    const res = await get('/assets/index-abc123.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the file as it is otherwise, still varying on Accept-Encoding', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'deflate']) {
      const res = await get('/assets/index-abc123.js', acceptEncoding);
      expect(res.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body).toBe(SCRIPT);
    }
  });

  it('compresses the page too, on / and on client-side routes', async () => {
    for (const url of ['/', '/tickets/some-uuid']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(INDEX);
    }
  });
});

describe('caching', () => {
  it('keeps hashed assets forever', async () => {
    for (const acceptEncoding of ['br', 'gzip', undefined]) {
      const res = await get('/assets/index-abc123.js', acceptEncoding);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('revalidates the page, on / and on client-side routes, and the other files', async () => {
    for (const url of ['/', '/index.html', '/tickets/some-uuid', '/settings', '/favicon.svg']) {
      for (const acceptEncoding of ['br', undefined]) {
        const res = await get(url, acceptEncoding);
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['cache-control'], url).toBe('no-cache');
      }
    }
  });

  it('keeps the security headers on compressed files', async () => {
    const res = await get('/assets/index-abc123.js', 'br');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});

describe('missing files', () => {
  it('answers 404 for an unknown asset, never the page', async () => {
    for (const url of ['/assets/missing.js', '/assets/missing', '/assets/index-abc123.js.map', '/missing.css']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'] ?? '', url).not.toMatch(/html/);
      expect(res.headers['cache-control'], url).not.toBe('public, max-age=31536000, immutable');
    }
  });

  it('never serves a file outside the build', async () => {
    for (const url of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
    ]) {
      for (const acceptEncoding of ['br', undefined]) {
        const res = await get(url, acceptEncoding);
        expect(res.body, url).not.toContain(SECRET);
        expect([400, 403, 404], url).toContain(res.statusCode);
      }
    }
  });
});
