import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the OpenAI API, over real HTTP: `POST /v1/chat/completions` and
 * `POST /v1/audio/transcriptions`, answered in the shapes the official API documents. Every request
 * is recorded (headers, JSON body or multipart fields) so tests can check what the server sent.
 * Chat answers are scripted per test, in order; when the script runs out the default answers.
 */

export type FakeChatReply =
  /** An assistant message (`finish_reason: 'stop'`). */
  | { text: string }
  /** A function call (`finish_reason: 'tool_calls'`), with optional text alongside. */
  | { tool: string; args: Record<string, unknown>; text?: string }
  /** An error status with the API's error body; `retryAfter` in seconds. */
  | { status: number; retryAfter?: number }
  /** Never answers (the client's timeout must fire). */
  | { hang: true };

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: string }[];
  tools?: { type: string; function: { name: string; parameters: { properties: Record<string, unknown> } } }[];
  max_completion_tokens?: number;
  temperature?: number;
}

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  /** Chat completions: the JSON body. */
  json?: ChatRequestBody;
  /** Transcriptions: the form's text fields and the file's name, type and size. */
  form?: { fields: Record<string, string>; file?: { name: string; type: string; size: number } };
}

export interface FakeOpenAi {
  /** The base URL to configure (`OPENAI_BASE_URL`). */
  url: string;
  requests: RecordedRequest[];
  chats(): RecordedRequest[];
  transcriptions(): RecordedRequest[];
  /** Queues chat answers, used one per request before the default. */
  script(...replies: FakeChatReply[]): void;
  /** What transcriptions return. */
  transcript: string;
  defaultReply: FakeChatReply;
  /** Forgets the script and the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

let seq = 0;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function completion(model: string, reply: { text?: string; tool?: string; args?: Record<string, unknown> }) {
  const id = ++seq;
  const toolCalls = reply.tool
    ? [{ id: `call_${id}`, type: 'function', function: { name: reply.tool, arguments: JSON.stringify(reply.args) } }]
    : undefined;
  return {
    id: `chatcmpl-${id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? null,
          refusal: null,
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: toolCalls ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const script: FakeChatReply[] = [];
  const hanging = new Set<ServerResponse>();

  const fake: FakeOpenAi = {
    url: '',
    requests: [],
    chats: () => fake.requests.filter((r) => r.path === '/v1/chat/completions'),
    transcriptions: () => fake.requests.filter((r) => r.path === '/v1/audio/transcriptions'),
    script: (...replies) => script.push(...replies),
    transcript: 'Transcrição do áudio',
    defaultReply: { text: 'Olá! Como posso ajudar?' },
    reset() {
      script.length = 0;
      fake.requests.length = 0;
      fake.defaultReply = { text: 'Olá! Como posso ajudar?' };
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
    const raw = await bodyOf(req);
    const recorded: RecordedRequest = { path, authorization: req.headers.authorization };
    if (req.method !== 'POST')
      return send(res, 405, { error: { message: 'Method not allowed', type: 'invalid_request_error' } });

    if (path === '/v1/audio/transcriptions') {
      const request = new Request('http://fake/', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body: new Uint8Array(raw),
      });
      const form = await request.formData();
      const fields: Record<string, string> = {};
      let file: { name: string; type: string; size: number } | undefined;
      for (const [name, value] of form) {
        if (typeof value === 'string') fields[name] = value;
        else file = { name: value.name, type: value.type, size: value.size };
      }
      recorded.form = { fields, file };
      fake.requests.push(recorded);
      if (!file) return send(res, 400, { error: { message: 'file is required', type: 'invalid_request_error' } });
      return send(res, 200, { text: fake.transcript });
    }

    if (path === '/v1/chat/completions') {
      recorded.json = JSON.parse(raw.toString('utf8')) as ChatRequestBody;
      fake.requests.push(recorded);
      const reply = script.shift() ?? fake.defaultReply;
      if ('hang' in reply) {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if ('status' in reply) {
        return send(
          res,
          reply.status,
          { error: { message: `Scripted ${reply.status}`, type: 'server_error', code: null } },
          reply.retryAfter === undefined ? {} : { 'retry-after': String(reply.retryAfter) },
        );
      }
      return send(res, 200, completion(recorded.json.model, reply));
    }

    fake.requests.push(recorded);
    send(res, 404, { error: { message: `Unknown path ${path}`, type: 'invalid_request_error' } });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
