import {
  idParam,
  intId,
  messageFileListParams,
  messageSchema,
  messageSendBody,
  messagesListQuery,
  messagesListReply,
} from '@balcao/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../platform/errors/app-error.js';
import { jsonField, readMultipartForm, uploadRoutes } from '../../platform/http/multipart.js';
import { type AppDeps, type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import {
  deleteMessage,
  listMessages,
  type MessagingDeps,
  retryMessage,
  sendFileList,
  sendMessages,
} from './messages.service.js';

/**
 * The message to send: a JSON body, or the multipart form of spec §7 (`medias` files, `body`, `quotedMsg` as
 * JSON); either may name the quick reply it came from (`quickMessageId`).
 */
async function sendInput(request: FastifyRequest) {
  const form = request.isMultipart() ? await readMultipartForm(request, 'medias') : undefined;
  const parsed = messageSendBody.safeParse(
    form
      ? { body: form.fields.body, quotedMsg: jsonField(form, 'quotedMsg'), quickMessageId: form.fields.quickMessageId }
      : (request.body ?? {}),
  );
  if (!parsed.success) throw new AppError('ERR_VALIDATION', {}, parsed.error.issues[0]?.message);
  const { body, quotedMsg, quickMessageId } = parsed.data;
  return { body, quotedMsgId: quotedMsg?.id, quickMessageId, files: form?.files ?? [] };
}

export const messagesRoutes: ModuleRoutes = (app, deps: AppDeps, guards) => {
  const tags = ['messages'];
  const ctx = serviceContext.bind(null, deps);
  const messaging: MessagingDeps = { channels: deps.channels, storage: deps.storage, jobs: deps.jobs };
  const ticketParam = z.object({ ticketId: intId() });

  app.get(
    '/messages/:ticketId',
    {
      onRequest: guards.auth,
      schema: { tags, params: ticketParam, querystring: messagesListQuery, response: { 200: messagesListReply } },
    },
    (request) => listMessages(ctx(request), messaging, request.params.ticketId, request.query.pageNumber),
  );
  uploadRoutes(app, (uploads) => {
    uploads.post(
      '/messages/:ticketId',
      { onRequest: guards.auth, schema: { tags, params: ticketParam, response: { 201: z.array(messageSchema) } } },
      async (request, reply) => {
        const input = await sendInput(request);
        return reply.status(201).send(await sendMessages(ctx(request), messaging, request.params.ticketId, input));
      },
    );
  });
  // Beyond the spec: the message input's "send a file list" (DOMAIN §15).
  app.post(
    '/messages/:ticketId/file-list/:fileListId',
    {
      onRequest: guards.auth,
      schema: { tags, params: messageFileListParams, response: { 201: z.array(messageSchema) } },
    },
    async (request, reply) => {
      const { ticketId, fileListId } = request.params;
      return reply.status(201).send(await sendFileList(ctx(request), messaging, ticketId, fileListId));
    },
  );
  app.delete(
    '/messages/:id',
    { onRequest: guards.auth, schema: { tags, params: idParam, response: { 200: messageSchema } } },
    (request) => deleteMessage(ctx(request), messaging, request.params.id),
  );
  // Beyond the spec: the chat's "try again" on a message that failed.
  app.post(
    '/messages/:id/retry',
    { onRequest: guards.auth, schema: { tags, params: idParam, response: { 200: messageSchema } } },
    (request) => retryMessage(ctx(request), messaging, request.params.id),
  );
};
