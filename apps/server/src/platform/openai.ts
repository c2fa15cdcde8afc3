/**
 * The two OpenAI endpoints the AI features use, over `fetch`: chat completions (with tools for the
 * prompts' assistant, DOMAIN §16; plain for the chat-assistant widget, DOMAIN §19) and audio
 * transcriptions. One client per call's key (a prompt's or a user's), so a changed key takes effect
 * at once. Any OpenAI-compatible server answers at `baseUrl`.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ToolCall {
  id: string;
  name: string;
  /** The JSON text of the arguments, as the model wrote it (not yet validated). */
  arguments: string;
}

export interface ChatAnswer {
  content: string;
  toolCalls: ToolCall[];
  finishReason: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ChatTool[];
  /** Omitted: the model's own limit. */
  maxTokens?: number;
  temperature: number;
}

export interface OpenAiClient {
  chat(request: ChatRequest): Promise<ChatAnswer>;
  /** The text of a voice note (Whisper-compatible endpoint). */
  transcribe(file: { data: Buffer; fileName: string; mimetype: string }): Promise<string>;
}

/** A call that failed for good: after its retries, on a timeout, or refused (4xx). Never carries the key. */
export class OpenAiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OpenAiError';
  }
}

export interface OpenAiOptions {
  baseUrl: string;
  apiKey: string;
  /** Per attempt. */
  timeoutMs: number;
  /** Further attempts after a 429, a 5xx or a network error. */
  retries?: number;
  /** First backoff; doubles per attempt. A `Retry-After` header (capped) wins. */
  retryDelayMs?: number;
}

const TRANSCRIPTION_MODEL = 'whisper-1';
const MAX_RETRY_AFTER_MS = 5000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const retriable = (status: number) => status === 429 || status >= 500;

function retryDelay(res: Response | undefined, attempt: number, base: number): number {
  const header = Number(res?.headers.get('retry-after'));
  if (Number.isFinite(header) && header > 0) return Math.min(header * 1000, MAX_RETRY_AFTER_MS);
  return base * 2 ** attempt;
}

interface RawAnswer {
  choices?: {
    message?: {
      content?: string | null;
      tool_calls?: { id?: string; type?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string;
  }[];
}

function answerOf(raw: RawAnswer): ChatAnswer {
  const choice = raw.choices?.[0];
  if (!choice?.message) throw new OpenAiError('answer without choices');
  const toolCalls = (choice.message.tool_calls ?? []).flatMap((c) =>
    c.type === 'function' && c.function?.name
      ? [{ id: c.id ?? '', name: c.function.name, arguments: c.function.arguments ?? '{}' }]
      : [],
  );
  return {
    content: typeof choice.message.content === 'string' ? choice.message.content : '',
    toolCalls,
    finishReason: choice.finish_reason ?? '',
  };
}

export function createOpenAiClient(opts: OpenAiOptions): OpenAiClient {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const retries = opts.retries ?? 2;
  const retryDelayMs = opts.retryDelayMs ?? 500;
  const authorization = `Bearer ${opts.apiKey}`;

  async function post(path: string, body: () => BodyInit, json: boolean): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      let res: Response | undefined;
      try {
        res = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: json ? { authorization, 'content-type': 'application/json' } : { authorization },
          body: body(),
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
      } catch (err) {
        const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
        if (timedOut) throw new OpenAiError(`no answer within ${opts.timeoutMs} ms`);
        if (attempt >= retries) throw new OpenAiError(`unreachable: ${(err as Error).message}`);
        await sleep(retryDelay(undefined, attempt, retryDelayMs));
        continue;
      }
      if (res.ok) {
        try {
          return await res.json();
        } catch {
          throw new OpenAiError('answer is not JSON', res.status);
        }
      }
      // The error body is drained but never repeated: some servers echo the request, key included.
      await res.arrayBuffer().catch(() => undefined);
      if (!retriable(res.status) || attempt >= retries) throw new OpenAiError(`HTTP ${res.status}`, res.status);
      await sleep(retryDelay(res, attempt, retryDelayMs));
    }
  }

  return {
    async chat(request) {
      const payload = JSON.stringify({
        model: request.model,
        messages: request.messages,
        ...(request.maxTokens === undefined ? {} : { max_completion_tokens: request.maxTokens }),
        temperature: request.temperature,
        ...(request.tools?.length ? { tools: request.tools, tool_choice: 'auto' } : {}),
      });
      return answerOf((await post('/chat/completions', () => payload, true)) as RawAnswer);
    },
    async transcribe(file) {
      const form = () => {
        const data = new FormData();
        data.append('file', new Blob([new Uint8Array(file.data)], { type: file.mimetype }), file.fileName);
        data.append('model', TRANSCRIPTION_MODEL);
        data.append('response_format', 'json');
        return data;
      };
      const raw = (await post('/audio/transcriptions', form, false)) as { text?: unknown };
      if (typeof raw.text !== 'string') throw new OpenAiError('transcription without text');
      return raw.text;
    },
  };
}
