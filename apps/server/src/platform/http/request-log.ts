import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One log line per request, when it is answered (instead of Fastify's "incoming request" and
 * "request completed" pair): `GET /tickets 200 12ms` at info, the health probe only at debug, a
 * failed reply at error with its error. The query string is left out: it may carry search terms or tokens.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const path = request.url.split('?', 1)[0];
    const line = `${request.method} ${path} ${reply.statusCode} ${Math.round(reply.elapsedTime)}ms`;
    if (error) reply.log.error({ err: error }, line);
    else if (path === '/health') reply.log.debug(line);
    else reply.log.info(line);
  }
}
