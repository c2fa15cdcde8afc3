import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { containsNul } from '../untrusted-text.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body plays a WhatsApp message (the sandbox phone): the inbound pipeline strips its NUL, as for any message. */
    whatsappBody?: boolean;
  }
}

/**
 * PostgreSQL text cannot hold NUL: a request with one in any string of its path, query or body is
 * refused before validation, whatever the route. Multipart fields are checked where they are read.
 */
export async function refuseNul(request: FastifyRequest): Promise<void> {
  const body = request.routeOptions.config.whatsappBody ? undefined : request.body;
  if (containsNul(request.params) || containsNul(request.query) || containsNul(body))
    throw new AppError('ERR_VALIDATION', {}, 'Text must not contain NUL characters');
}
