import {
  idParam,
  quickMessageInput,
  quickMessageSchema,
  quickMessagesListQuery,
  quickMessagesListReply,
  quickMessageUpdate,
} from '@balcao/shared';
import { z } from 'zod';
import { AppError } from '../../platform/errors/app-error.js';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import {
  allQuickMessages,
  createQuickMessage,
  deleteQuickMessage,
  findQuickMessage,
  listQuickMessages,
  setQuickMessageMedia,
  updateQuickMessage,
} from './quick-messages.service.js';

export const quickMessagesRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['quick-messages'];
  const ctx = serviceContext.bind(null, deps);
  const one = { preHandler: guards.auth, schema: { tags, params: idParam, response: { 200: quickMessageSchema } } };
  app.get(
    '/quick-messages',
    {
      preHandler: guards.auth,
      schema: { tags, querystring: quickMessagesListQuery, response: { 200: quickMessagesListReply } },
    },
    (request) => listQuickMessages(ctx(request), request.query),
  );
  app.get(
    '/quick-messages/list',
    { preHandler: guards.auth, schema: { tags, response: { 200: z.array(quickMessageSchema) } } },
    (request) => allQuickMessages(ctx(request)),
  );
  app.get('/quick-messages/:id', one, (request) => findQuickMessage(ctx(request), request.params.id));
  app.post(
    '/quick-messages',
    { preHandler: guards.auth, schema: { tags, body: quickMessageInput, response: { 201: quickMessageSchema } } },
    async (request, reply) => reply.status(201).send(await createQuickMessage(ctx(request), request.body)),
  );
  app.put(
    '/quick-messages/:id',
    {
      preHandler: guards.auth,
      schema: { tags, params: idParam, body: quickMessageUpdate, response: { 200: quickMessageSchema } },
    },
    (request) => updateQuickMessage(ctx(request), request.params.id, request.body),
  );
  app.delete('/quick-messages/:id', { preHandler: guards.auth, schema: { tags, params: idParam } }, async (request) => {
    await deleteQuickMessage(ctx(request), deps.storage, request.params.id);
    return { message: 'Quick message deleted' };
  });
  app.post('/quick-messages/:id/media-upload', one, async (request) => {
    const part = await request.file();
    if (!part) throw new AppError('ERR_VALIDATION', {}, 'file is required');
    const data = await part.toBuffer();
    return setQuickMessageMedia(ctx(request), deps.storage, request.params.id, {
      data,
      fileName: part.filename || 'file',
      mimetype: part.mimetype || 'application/octet-stream',
    });
  });
  app.delete('/quick-messages/:id/media-upload', one, (request) =>
    setQuickMessageMedia(ctx(request), deps.storage, request.params.id, null),
  );
};
