import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { guardedFetch, isPrivateAddress, OutboundError } from './outbound.js';

// Names only these tests resolve; every other name goes to the real resolver.
const dnsAnswers = vi.hoisted(() => new Map<string, { address: string; family: number }[][]>());
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = vi.fn(async (host: string, options: object) => {
    const answers = dnsAnswers.get(host);
    return answers ? (answers.shift() ?? []) : real.lookup(host, { ...options, all: true });
  });
  return { ...real, lookup, default: { ...real, lookup } };
});

const { lookup } = await import('node:dns/promises');

interface Seen {
  method: string;
  host: string;
  body: string;
}

let server: Server;
let port: number;
const seen: Seen[] = [];
let handler: (req: IncomingMessage, res: ServerResponse) => void;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    seen.push({ method: req.method ?? '', host: req.headers.host ?? '', body: Buffer.concat(chunks).toString() });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
  dnsAnswers.clear();
  vi.mocked(lookup).mockClear();
  handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  };
});

const strict = { timeoutMs: 2000, allowPrivate: false };
const open = { timeoutMs: 2000, allowPrivate: true };

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundError);
  return err as OutboundError;
}

describe('guardedFetch', () => {
  it.each([
    'http://127.0.0.1:PORT/',
    'http://localhost:PORT/',
    'http://10.0.0.7/',
    'http://[::1]:PORT/',
    'http://[::ffff:127.0.0.1]:PORT/',
    'http://2130706433:PORT/',
    'http://169.254.169.254/latest/meta-data',
  ])('refuses %s without allowPrivate', async (template) => {
    const err = await failure(guardedFetch(template.replace('PORT', String(port)), {}, strict));
    expect(err.reason).toBe('refused');
    expect(seen).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback, and one with any private address among public ones', async () => {
    dnsAnswers.set('bot.example.test', [[{ address: '127.0.0.1', family: 4 }]]);
    dnsAnswers.set('mixed.example.test', [
      [
        { address: '93.184.216.34', family: 4 },
        { address: '192.168.1.10', family: 4 },
      ],
    ]);
    expect((await failure(guardedFetch(`http://bot.example.test:${port}/`, {}, strict))).reason).toBe('refused');
    expect((await failure(guardedFetch('http://mixed.example.test/', {}, strict))).reason).toBe('refused');
    expect(seen).toHaveLength(0);
  });

  it('refuses schemes other than http and https, and keeps the URL out of the message', async () => {
    expect((await failure(guardedFetch('file:///etc/passwd', {}, open))).reason).toBe('invalid-url');
    expect((await failure(guardedFetch('ftp://example.test/x', {}, open))).reason).toBe('invalid-url');
    const err = await failure(guardedFetch(`http://127.0.0.1:${port}/hook?token=s3cr3t`, {}, strict));
    expect(err.message).not.toContain('s3cr3t');
  });

  it('classifies addresses', () => {
    for (const address of [
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '100.64.0.1',
      '100.127.255.255',
      '169.254.1.1',
      '0.0.0.0',
      '127.8.8.8',
      '::1',
      '::',
      'fe80::1',
      'fd12:3456::1',
      'fc00::1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      'not-an-ip',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '172.32.0.1', '100.128.0.1', '8.8.8.8', '2606:4700::1111'])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('reaches loopback when allowPrivate, sending method, headers and body', async () => {
    const res = await guardedFetch(
      `http://127.0.0.1:${port}/x`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":"é"}' },
      open,
    );
    expect(res.status).toBe(200);
    expect(res.ok).toBe(true);
    expect(res.json()).toEqual({ ok: true });
    expect(seen).toEqual([{ method: 'POST', host: `127.0.0.1:${port}`, body: '{"a":"é"}' }]);
  });

  it('connects to the address it checked, never asking DNS again (rebinding)', async () => {
    dnsAnswers.set('rebind.example.test', [
      [{ address: '127.0.0.1', family: 4 }],
      [{ address: '203.0.113.9', family: 4 }],
    ]);
    const res = await guardedFetch(`http://rebind.example.test:${port}/`, {}, open);
    expect(res.status).toBe(200);
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(seen[0].host).toBe(`rebind.example.test:${port}`);
  });

  it('returns non-2xx answers as they are and follows no redirect', async () => {
    handler = (_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/' });
      res.end();
    };
    const res = await guardedFetch(`http://127.0.0.1:${port}/`, {}, open);
    expect(res.status).toBe(302);
    expect(res.ok).toBe(false);
    expect(seen).toHaveLength(1);
  });

  it('times out on a server that never answers', async () => {
    handler = () => {};
    const started = Date.now();
    const err = await failure(guardedFetch(`http://127.0.0.1:${port}/`, {}, { timeoutMs: 150, allowPrivate: true }));
    expect(err.reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('stops reading an answer larger than 1 MiB, or than maxBytes, and keeps binary bodies intact', async () => {
    const file = Buffer.alloc(2 * 1024 * 1024, 0xff);
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(file);
    };
    expect((await failure(guardedFetch(`http://127.0.0.1:${port}/`, {}, open))).reason).toBe('too-large');
    const res = await guardedFetch(`http://127.0.0.1:${port}/`, {}, { ...open, maxBytes: 3 * 1024 * 1024 });
    expect(res.body().equals(file)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
  });

  it('reports an unreachable host as a network failure', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(guardedFetch(`http://127.0.0.1:${freePort}/`, {}, open));
    expect(err.reason).toBe('network');
    expect(err.message).toContain('ECONNREFUSED');
  });
});
