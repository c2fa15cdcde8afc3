import { createRequire } from 'node:module';
import type { FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/** Keys whose values never reach a log line, at any depth. */
const SECRET_KEY =
  /pass(word)?|hash|token|secret|api_?key|private_?key|encryption_?key|cookie|authorization|credential|providerConfig/i;
const REDACTED = '[redacted]';
/** Query parameters shorter than this stay in messages: replacing every `1` would garble them, and no secret is that short. */
const SECRET_MIN_LENGTH = 5;
const MAX_DEPTH = 8;

const isPlainObject = (v: object) => [Object.prototype, null].includes(Object.getPrototypeOf(v));

/**
 * The parameters of a failed query, wherever they hide: drizzle's DrizzleQueryError keeps them and
 * writes them into its message (`params: …`), PGlite's error keeps them too, and PostgreSQL may quote
 * one in its own message (`invalid input syntax for type integer: "…"`).
 */
function queryParamsOf(err: unknown): unknown[][] {
  const lists: unknown[][] = [];
  for (let e = err, depth = 0; e instanceof Object && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const params = (e as { params?: unknown }).params;
    if (Array.isArray(params)) lists.push(params);
  }
  return lists;
}

function withoutParams(text: string, lists: unknown[][]): string {
  let out = text;
  for (const params of lists) {
    out = out.replaceAll(`params: ${params}`, `params: ${REDACTED}`);
    for (const p of params)
      if (typeof p === 'string' && p.length >= SECRET_MIN_LENGTH) out = out.replaceAll(p, REDACTED);
  }
  return out;
}

/** pino's error serializer (message and stack with their causes), without query parameters or secret keys. */
function scrubError(err: Error): Record<string, unknown> {
  const lists = queryParamsOf(err);
  const {
    params: _params,
    queryOptions: _options,
    ...fields
  } = { ...pino.stdSerializers.err(err) } as Record<string, unknown>;
  const texts = Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? withoutParams(v, lists) : v]);
  return scrub(Object.fromEntries(texts), 1) as Record<string, unknown>;
}

/** A logged value with its secrets replaced; requests, replies and buffers are left to their serializers. */
function scrub(value: unknown, depth = 0): unknown {
  if (value instanceof Error) return scrubError(value);
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? REDACTED : scrub(v, depth + 1)]),
  );
}

/** A URL as logged: the values of secret-looking query parameters (`hub.verify_token`) are replaced. */
function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  for (const key of [...params.keys()]) if (SECRET_KEY.test(key)) params.set(key, REDACTED);
  return `${url.slice(0, query)}?${params}`;
}

/**
 * What every log line passes through: passwords, hashes, tokens, keys, secrets, cookies and
 * authorization headers are replaced at any depth, and a failed query's error keeps its SQL but
 * not its parameters.
 */
const redaction: Pick<LoggerOptions, 'hooks' | 'serializers'> = {
  hooks: {
    logMethod(args, method) {
      const [first, ...rest] = args as unknown[];
      if (typeof first !== 'object' || first === null) return method.apply(this, args);
      const lists = queryParamsOf((first as { err?: unknown }).err ?? first);
      const texts = rest.map((a) => (typeof a === 'string' ? withoutParams(a, lists) : a));
      const object = first instanceof Error ? { err: scrubError(first) } : scrub(first);
      return method.apply(this, [object, ...texts] as Parameters<typeof method>);
    },
  },
  serializers: {
    // Errors were scrubbed on the way in; re-serializing the result would lose their type.
    err: (err: unknown) => (err instanceof Error ? scrubError(err) : err),
    req: (request: FastifyRequest) => ({
      method: request.method,
      url: loggedUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
    }),
  },
};

/**
 * Pretty lines for development, written synchronously: a pino transport would run it in a worker thread,
 * which costs start time and ~20 MiB. Required here so that production never loads it.
 */
function prettyStream(): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  return pretty({ translateTime: 'HH:MM:ss', sync: true });
}

/** The server's logger: JSON in production, pretty in development; `destination` lets tests read it. */
export function createLogger(opts: { level: string; pretty: boolean }, destination?: DestinationStream): Logger {
  return pino({ level: opts.level, ...redaction }, destination ?? (opts.pretty ? prettyStream() : undefined));
}
