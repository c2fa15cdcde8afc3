import type { ErrorBody } from '@balcao/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './app-error.js';

/** Postgres unique violations that reach here mean a race the service did not pre-check. */
const PG_UNIQUE_VIOLATION = '23505';

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
    if (err.code === PG_UNIQUE_VIOLATION) {
      return reply.status(409).send({ error: 'ERR_DUPLICATED_NAME', message: 'Already exists' });
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
