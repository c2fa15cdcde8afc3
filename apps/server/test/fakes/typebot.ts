import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for a Typebot server's chat API v1, over real HTTP:
 * `POST /api/v1/typebots/{publicId}/startChat` and `POST /api/v1/sessions/{sessionId}/continueChat`,
 * answered in the shapes Typebot documents (bubbles with an id, an optional input, client-side
 * actions). It keeps the sessions it started, so a forgotten one gets Typebot's 404
 * "Session not found.". Every request is recorded; answers are scripted per test, in order.
 */

export interface TypebotBubble {
  id: string;
  type: string;
  content: Record<string, unknown>;
}

export type FakeTypebotReply =
  /** A 200 with these bubbles, input and client-side actions (startChat adds `sessionId` and `typebot`). */
  | { messages?: TypebotBubble[]; input?: Record<string, unknown>; clientSideActions?: Record<string, unknown>[] }
  /** An error status with a tRPC-style body. */
  | { status: number; message?: string }
  /** Never answers. */
  | { hang: true };

export interface TypebotRequest {
  kind: 'start' | 'continue';
  /** startChat: the public id in the path. */
  slug?: string;
  /** continueChat: the session id in the path. */
  sessionId?: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeTypebot {
  /** The integration's `url`. */
  url: string;
  requests: TypebotRequest[];
  script(...replies: FakeTypebotReply[]): void;
  defaultReply: FakeTypebotReply;
  /** Every session started so far becomes unknown (as after Typebot's expiry). */
  forgetSessions(): void;
  reset(): void;
  close(): Promise<void>;
}

let bubbleSeq = 0;
const nextId = (prefix: string) => `${prefix}${++bubbleSeq}`;

/** A text bubble of paragraphs, each a list of Plate leaves/inline elements (or a plain string). */
export function textBubble(...paragraphs: (string | Record<string, unknown>[])[]): TypebotBubble {
  const richText = paragraphs.map((p) => ({ type: 'p', children: typeof p === 'string' ? [{ text: p }] : p }));
  return { id: nextId('b'), type: 'text', content: { type: 'richText', richText } };
}

export function richTextBubble(richText: Record<string, unknown>[]): TypebotBubble {
  return { id: nextId('b'), type: 'text', content: { type: 'richText', richText } };
}

export function mediaBubble(type: 'image' | 'video' | 'audio' | 'embed', content: Record<string, unknown>) {
  return { id: nextId('b'), type, content } satisfies TypebotBubble;
}

export function choiceInput(...labels: string[]) {
  return {
    id: nextId('i'),
    type: 'choice input',
    items: labels.map((content) => ({ id: nextId('item'), outgoingEdgeId: nextId('e'), content })),
    options: {},
  };
}

export function textInput() {
  return { id: nextId('i'), type: 'text input', options: { labels: { placeholder: 'Digite…' } } };
}

export function waitAction(secondsToWaitFor: number, lastBubbleBlockId?: string) {
  return { type: 'wait', wait: { secondsToWaitFor }, ...(lastBubbleBlockId ? { lastBubbleBlockId } : {}) };
}

/** What Typebot sends for a Set variable block executed on the client: code with variables as ids, plus their values. */
export function setVariableAction(content: string, args: { id: string; value: unknown }[] = []) {
  return {
    type: 'setVariable',
    setVariable: { scriptToExecute: { content, args, isCode: false } },
    expectsDedicatedReply: true,
  };
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

export async function startFakeTypebot(): Promise<FakeTypebot> {
  const script: FakeTypebotReply[] = [];
  const sessions = new Set<string>();
  const hanging = new Set<ServerResponse>();
  let sessionSeq = 0;
  const defaultReply: FakeTypebotReply = { messages: [textBubble('Olá!')], input: textInput() };

  const fake: FakeTypebot = {
    url: '',
    requests: [],
    script: (...replies) => script.push(...replies),
    defaultReply,
    forgetSessions: () => sessions.clear(),
    reset() {
      script.length = 0;
      fake.requests.length = 0;
      sessions.clear();
      sessionSeq = 0;
      fake.defaultReply = defaultReply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const start = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(path);
    const next = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(path);
    if (req.method !== 'POST' || (!start && !next)) return send(res, 404, { message: 'Not found', code: 'NOT_FOUND' });

    const body = await bodyOf(req);
    const recorded: TypebotRequest = start
      ? { kind: 'start', slug: decodeURIComponent(start[1]), headers: req.headers, body }
      : { kind: 'continue', sessionId: decodeURIComponent(next![1]), headers: req.headers, body };
    fake.requests.push(recorded);

    if (recorded.kind === 'continue' && !sessions.has(recorded.sessionId!))
      return send(res, 404, { message: 'Session not found.', code: 'NOT_FOUND' });

    const reply = script.shift() ?? fake.defaultReply;
    if ('hang' in reply) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if ('status' in reply)
      return send(res, reply.status, { message: reply.message ?? `Scripted ${reply.status}`, code: 'INTERNAL' });

    const answer = { messages: reply.messages ?? [], input: reply.input, clientSideActions: reply.clientSideActions };
    if (recorded.kind === 'continue') return send(res, 200, answer);
    const sessionId = `sess${++sessionSeq}`;
    sessions.add(sessionId);
    send(res, 200, {
      sessionId,
      resultId: `res${sessionSeq}`,
      typebot: { id: recorded.slug, version: '6', theme: {}, settings: {} },
      ...answer,
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
