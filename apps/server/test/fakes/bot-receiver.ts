import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local n8n / webhook receiver, over real HTTP: it accepts any POST, verifies the delivery's
 * `X-Balcao-Signature` with the secret it was given (as a real receiver would: HMAC-SHA256 of
 * `{timestamp}.{raw body}`) and records each delivery with the verdict. Answers are scripted per
 * test, in order; when the script runs out it answers an empty 200.
 */

export type FakeReceiverReply =
  /** A 200 with this JSON. */
  | { json: unknown }
  /** A 200 with this raw body. */
  | { raw: string; contentType?: string }
  /** An error status. */
  | { status: number }
  /** Never answers. */
  | { hang: true };

export interface Delivery {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  json: Record<string, unknown>;
  /** The signature header matched the HMAC of `{timestamp}.{raw}` with the receiver's secret. */
  signatureValid: boolean;
}

export interface FakeBotReceiver {
  /** The integration's `url` (path `/hook`). */
  url: string;
  deliveries: Delivery[];
  script(...replies: FakeReceiverReply[]): void;
  reset(): void;
  close(): Promise<void>;
}

function verify(secret: string, headers: IncomingMessage['headers'], raw: string): boolean {
  const signature = headers['x-balcao-signature'];
  const timestamp = headers['x-balcao-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function startFakeBotReceiver(secret: string): Promise<FakeBotReceiver> {
  const script: FakeReceiverReply[] = [];
  const hanging = new Set<ServerResponse>();

  const fake: FakeBotReceiver = {
    url: '',
    deliveries: [],
    script: (...replies) => script.push(...replies),
    reset() {
      script.length = 0;
      fake.deliveries.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(raw) as Record<string, unknown>;
    } catch {}
    fake.deliveries.push({
      path: (req.url ?? '').split('?')[0],
      headers: req.headers,
      raw,
      json,
      signatureValid: verify(secret, req.headers, raw),
    });

    const reply = script.shift() ?? { raw: '' };
    if ('hang' in reply) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      return res.end('{"message":"Error in workflow"}');
    }
    if ('json' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(reply.json));
    }
    res.writeHead(200, { 'content-type': reply.contentType ?? 'text/plain' });
    res.end(reply.raw);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return fake;
}
