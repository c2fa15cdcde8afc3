import {
  API_IDEMPOTENCY_TTL_HOURS,
  API_SEND_LIMIT_PER_MINUTE,
  API_STATUS_LIMIT_PER_MINUTE,
  apiIdempotencyHeaders,
  apiMessageIdParam,
  apiMessageSendBody,
  apiMessageSendReply,
  apiMessageStatusReply,
} from '@balcao/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../../platform/auth/rate-limiter.js';
import { AppError } from '../../platform/errors/app-error.js';
import { type FormFile, readMultipartForm, uploadRoutes } from '../../platform/http/multipart.js';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { type ApiCaller, apiCallerOf, apiMessageStatus, sendApiMessage } from './api-messages.service.js';

/** The OpenAPI security scheme of these routes (declared in app.ts): a connection's token. */
export const API_SECURITY = [{ connectionToken: [] }];

const MINUTE_MS = 60_000;

/** The caller each request authenticated as, and the files of a multipart send. */
const callers = new WeakMap<FastifyRequest, ApiCaller>();
const uploads = new WeakMap<FastifyRequest, FormFile[]>();

function callerOfRequest(request: FastifyRequest): ApiCaller {
  const caller = callers.get(request);
  if (!caller) throw new AppError('ERR_INVALID_CREDENTIALS', {}, 'Invalid API token');
  return caller;
}

/**
 * A fixed one-minute window per connection token and kind of call, counted with the server's rate
 * limiter (in memory, or in Redis shared by every instance): past `limit`, 429 with `Retry-After`.
 */
async function withinRate(limiter: RateLimiter, reply: FastifyReply, key: string, limit: number) {
  const now = Date.now();
  const window = Math.floor(now / MINUTE_MS);
  if ((await limiter.hit(`api:${key}:${window}`)) <= limit) return;
  const retryAfter = Math.max(1, Math.ceil(((window + 1) * MINUTE_MS - now) / 1000));
  reply.header('retry-after', String(retryAfter));
  throw new AppError(
    'ERR_TOO_MANY_REQUESTS',
    { retryAfter },
    `Too many requests: at most ${limit} a minute per connection token. Try again in ${retryAfter} s`,
  );
}

const SEND_DESCRIPTION = `Sends a message to a WhatsApp number through the connection of the token.
JSON \`{number, body}\` for text; multipart/form-data with \`number\`, \`body\` and one or more files under
\`medias\` (sent in order, \`body\` as the caption of the first) for media. \`number\`: digits only, country code,
area code and number. The contact and its ticket are found or created; the message is stored (it appears in the
ticket's history) and queued for sending: the reply's \`id\` tells its state through \`GET /api/messages/{id}\`.
An \`Idempotency-Key\` header makes a retried call answer the first call's reply instead of sending again (keys
kept ${API_IDEMPOTENCY_TTL_HOURS} h per connection). At most ${API_SEND_LIMIT_PER_MINUTE} sends a minute per token
(429 ERR_TOO_MANY_REQUESTS with Retry-After past it). Errors: 401 ERR_INVALID_CREDENTIALS (token missing or
wrong), 403 ERR_PLAN_FEATURE_DISABLED (plan without the external API) or ERR_NO_PERMISSION (company inactive),
400 ERR_WAPP_INVALID_CONTACT (not on WhatsApp), ERR_WAPP_NOT_INITIALIZED (connection not connected),
ERR_VALIDATION.`;

/**
 * The external message API (DOMAIN §10). Authenticated by a connection's token, not by a user's
 * session: the token is checked (and the call counted against its rate limit) before anything of
 * the request is read, so a caller without a valid token learns nothing of the schema.
 */
export const apiMessagesRoutes: ModuleRoutes = (app, deps) => {
  const tags = ['external API'];
  const db = deps.database.db;
  const services = {
    db,
    realtime: deps.realtime,
    jobs: deps.jobs,
    channels: deps.channels,
    storage: deps.storage,
  };
  const authenticate =
    (kind: 'send' | 'status', limit: number) => async (request: FastifyRequest, reply: FastifyReply) => {
      const caller = await apiCallerOf(db, request.headers.authorization);
      request.log = request.log.child({ companyId: caller.companyId, whatsappId: caller.whatsappId });
      await withinRate(deps.limiter, reply, `${kind}:${caller.whatsappId}`, limit);
      callers.set(request, caller);
    };
  // A multipart send's text fields become the body that the schema validates; its files wait aside.
  const readForm = async (request: FastifyRequest) => {
    if (!request.isMultipart()) return;
    const form = await readMultipartForm(request, 'medias');
    uploads.set(request, form.files);
    (request as { body: unknown }).body = { number: form.fields.number, body: form.fields.body };
  };

  uploadRoutes(app, (forms) => {
    forms.post(
      '/api/messages/send',
      {
        onRequest: authenticate('send', API_SEND_LIMIT_PER_MINUTE),
        preValidation: readForm,
        schema: {
          tags,
          summary: 'Send a message (text or media) with a connection token',
          description: SEND_DESCRIPTION,
          security: API_SECURITY,
          consumes: ['application/json', 'multipart/form-data'],
          headers: apiIdempotencyHeaders,
          body: apiMessageSendBody,
          response: { 201: apiMessageSendReply },
        },
      },
      async (request, reply) => {
        const caller = callerOfRequest(request);
        const files = uploads.get(request);
        if (!files && request.body.medias !== undefined)
          throw new AppError('ERR_VALIDATION', {}, 'medias are files: send them as multipart/form-data');
        const result = await sendApiMessage({ ...services, log: request.log }, caller, {
          number: request.body.number,
          body: request.body.body,
          files: files ?? [],
          idempotencyKey: request.headers['idempotency-key'],
        });
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        return reply.status(201).send(result.reply);
      },
    );
  });

  app.get(
    '/api/messages/:id',
    {
      onRequest: authenticate('status', API_STATUS_LIMIT_PER_MINUTE),
      schema: {
        tags,
        summary: 'The state of a message sent through the API',
        description: `pending (stored, not yet accepted by WhatsApp), sent, delivered, read or failed (\`error\` says
why). Only messages this API stored for the token's connection: any other id is 404 ERR_NO_MESSAGE_FOUND.
At most ${API_STATUS_LIMIT_PER_MINUTE} reads a minute per token.`,
        security: API_SECURITY,
        params: apiMessageIdParam,
        response: { 200: apiMessageStatusReply },
      },
    },
    (request) => apiMessageStatus(db, callerOfRequest(request), request.params.id),
  );
};
