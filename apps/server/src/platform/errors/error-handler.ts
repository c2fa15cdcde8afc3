import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBody } from '@balcao/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './app-error.js';

/** Postgres unique violations that reach here mean a race the service did not pre-check. */
const PG_UNIQUE_VIOLATION = '23505';
/**
 * Data exceptions that only a value from the caller can raise (too long for its column, out of
 * range, malformed, NUL): validation should have refused it first, so they are logged, but answered 400.
 */
const PG_BAD_VALUE = new Set(['22001', '22003', '22021', '22P02', '22P05']);

/** The SQLSTATE of a database error, also when drizzle wraps it (the cause of a DrizzleQueryError). */
function sqlStateOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e instanceof Object && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError & { code?: string }, request, reply) => {
    if (err instanceof AppError) {
      const body: ErrorBody = { error: err.code, message: err.message, ...err.extra };
      return reply.status(err.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = err.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: v.message ?? 'invalid',
      }));
      const first = fields[0];
      const body: ErrorBody = {
        error: 'ERR_VALIDATION',
        message: first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'Invalid request',
        fields,
      };
      return reply.status(400).send(body);
    }
    if (err.statusCode === 429) {
      return reply.status(429).send({ error: 'ERR_TOO_MANY_REQUESTS', message: err.message });
    }
    const sqlState = sqlStateOf(err);
    if (sqlState === PG_UNIQUE_VIOLATION) {
      return reply.status(409).send({ error: 'ERR_DUPLICATED_NAME', message: 'Already exists' });
    }
    if (sqlState && PG_BAD_VALUE.has(sqlState)) {
      request.log.warn({ err }, 'value refused by the database');
      return reply.status(400).send({ error: 'ERR_VALIDATION', message: 'Invalid value' } satisfies ErrorBody);
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ error: 'ERR_VALIDATION', message: err.message } satisfies ErrorBody);
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: 'ERR_INTERNAL', message: 'Internal error' } satisfies ErrorBody);
  });

  app.setNotFoundHandler((_request, reply) => {
    reply.status(404).send({ error: 'ERR_NOT_FOUND', message: 'Route not found' } satisfies ErrorBody);
  });
}

/** Refusals of the router itself, before any route (a malformed URL, a parameter over maxParamLength). */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  reply.status(err.statusCode ?? 400).send({ error: 'ERR_VALIDATION', message: err.message } satisfies ErrorBody);
}

/** Refusals of the HTTP parser, before there is a request (headers too large, a malformed request line). */
export function clientErrorHandler(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request headers too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timeout']
        : [400, 'Malformed request'];
  const body = JSON.stringify({ error: 'ERR_VALIDATION', message } satisfies ErrorBody);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
