import { idParam, messageSchema, messageSendBody, messagesListQuery, messagesListReply } from '@balcao/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../platform/errors/app-error.js';
import { type AppDeps, type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import {
  deleteMessage,
  listMessages,
  type MessagingDeps,
  sendMessages,
  type UploadedFile,
} from './messages.service.js';

/** The multipart form of spec §7: `medias` files plus `body` (and optionally `quotedMsg` as JSON). */
async function readMultipart(request: FastifyRequest) {
  const files: UploadedFile[] = [];
  let body = '';
  let quotedMsgId: number | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'medias')
        throw new AppError('ERR_VALIDATION', {}, `Unexpected file field ${part.fieldname}`);
      const data = await part.toBuffer();
      files.push({ data, fileName: part.filename || 'file', mimetype: part.mimetype || 'application/octet-stream' });
    } else if (part.fieldname === 'body') {
      body = String(part.value ?? '');
    } else if (part.fieldname === 'quotedMsg' && part.value) {
      const id = Number(JSON.parse(String(part.value))?.id);
      if (Number.isInteger(id) && id > 0) quotedMsgId = id;
    }
  }
  return { body, quotedMsgId, files };
}

export const messagesRoutes: ModuleRoutes = (app, deps: AppDeps, guards) => {
  const tags = ['messages'];
  const ctx = serviceContext.bind(null, deps);
  const messaging: MessagingDeps = { channels: deps.channels, storage: deps.storage, jobs: deps.jobs };
  const ticketParam = z.object({ ticketId: z.coerce.number().int().positive() });

  app.get(
    '/messages/:ticketId',
    {
      preHandler: guards.auth,
      schema: { tags, params: ticketParam, querystring: messagesListQuery, response: { 200: messagesListReply } },
    },
    (request) => listMessages(ctx(request), messaging, request.params.ticketId, request.query.pageNumber),
  );
  app.post(
    '/messages/:ticketId',
    { preHandler: guards.auth, schema: { tags, params: ticketParam, response: { 201: z.array(messageSchema) } } },
    async (request, reply) => {
      const input = request.isMultipart()
        ? await readMultipart(request)
        : (() => {
            const parsed = messageSendBody.safeParse(request.body ?? {});
            if (!parsed.success) throw new AppError('ERR_VALIDATION', {}, parsed.error.issues[0]?.message);
            return { body: parsed.data.body, quotedMsgId: parsed.data.quotedMsg?.id, files: [] };
          })();
      return reply.status(201).send(await sendMessages(ctx(request), messaging, request.params.ticketId, input));
    },
  );
  app.delete(
    '/messages/:id',
    { preHandler: guards.auth, schema: { tags, params: idParam, response: { 200: messageSchema } } },
    (request) => deleteMessage(ctx(request), messaging, request.params.id),
  );
};
