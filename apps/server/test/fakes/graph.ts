import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the WhatsApp Cloud API (Graph API) over real HTTP, enough for sending: the
 * phone-number lookup a session start makes and `POST /{phoneNumberId}/messages`, answered with a new
 * `wamid` per message. Every accepted message's JSON body is recorded; `refuse` makes the messages to a
 * number fail with a Graph error code.
 */
export interface FakeGraph {
  /** The base URL to configure (`CLOUD_GRAPH_URL`). */
  url: string;
  /** The bodies of the messages accepted, in order. */
  messages: Record<string, unknown>[];
  /** Messages to `number` answer 400 with this Graph error code from now on. */
  refuse(number: string, code: number): void;
  close(): Promise<void>;
}

export const FAKE_GRAPH_PHONE_ID = '1098765432199';
export const FAKE_GRAPH_TOKEN = 'EAAG-fake-graph-token-0123456789';

/** What `POST /whatsapp` takes for a Cloud API connection on this fake. */
export const fakeGraphConnection = (name: string) => ({
  name,
  provider: 'cloud',
  providerConfig: {
    phoneNumberId: FAKE_GRAPH_PHONE_ID,
    accessToken: FAKE_GRAPH_TOKEN,
    appSecret: 'fake-graph-app-secret-0123456789',
    verifyToken: 'fake-graph-verify',
  },
});

export async function startFakeGraph(): Promise<FakeGraph> {
  const messages: Record<string, unknown>[] = [];
  const refused = new Map<string, number>();
  let sent = 0;
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const json = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${FAKE_GRAPH_TOKEN}`) return json(401, { error: { code: 190 } });
    if (req.method === 'GET' && path === `/v21.0/${FAKE_GRAPH_PHONE_ID}`)
      return json(200, { id: FAKE_GRAPH_PHONE_ID, display_phone_number: '+55 11 4000-0099' });
    if (req.method === 'POST' && path === `/v21.0/${FAKE_GRAPH_PHONE_ID}/messages`) {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
      const code = refused.get(String(body.to));
      if (code !== undefined) return json(400, { error: { code, message: 'refused by the fake' } });
      messages.push(body);
      return json(200, { messaging_product: 'whatsapp', messages: [{ id: `wamid.FAKE${++sent}` }] });
    }
    json(404, { error: { message: 'unknown' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`,
    messages,
    refuse: (number, code) => refused.set(number, code),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
