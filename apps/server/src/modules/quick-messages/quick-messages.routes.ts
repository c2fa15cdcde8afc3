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
import { readMultipartForm, uploadRoutes } from '../../platform/http/multipart.js';
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
  const one = { onRequest: guards.auth, schema: { tags, params: idParam, response: { 200: quickMessageSchema } } };
  app.get(
    '/quick-messages',
    {
      onRequest: guards.auth,
      schema: { tags, querystring: quickMessagesListQuery, response: { 200: quickMessagesListReply } },
    },
    (request) => listQuickMessages(ctx(request), request.query),
  );
  app.get(
    '/quick-messages/list',
    { onRequest: guards.auth, schema: { tags, response: { 200: z.array(quickMessageSchema) } } },
    (request) => allQuickMessages(ctx(request)),
  );
  app.get('/quick-messages/:id', one, (request) => findQuickMessage(ctx(request), request.params.id));
  app.post(
    '/quick-messages',
    { onRequest: guards.auth, schema: { tags, body: quickMessageInput, response: { 201: quickMessageSchema } } },
    async (request, reply) => reply.status(201).send(await createQuickMessage(ctx(request), request.body)),
  );
  app.put(
    '/quick-messages/:id',
    {
      onRequest: guards.auth,
      schema: { tags, params: idParam, body: quickMessageUpdate, response: { 200: quickMessageSchema } },
    },
    (request) => updateQuickMessage(ctx(request), request.params.id, request.body),
  );
  app.delete('/quick-messages/:id', { onRequest: guards.auth, schema: { tags, params: idParam } }, async (request) => {
    await deleteQuickMessage(ctx(request), deps.storage, request.params.id);
    return { message: 'Quick message deleted' };
  });
  uploadRoutes(app, (uploads) => {
    uploads.post('/quick-messages/:id/media-upload', one, async (request) => {
      const [file] = (await readMultipartForm(request, 'file')).files;
      if (!file) throw new AppError('ERR_VALIDATION', {}, 'file is required');
      return setQuickMessageMedia(ctx(request), deps.storage, request.params.id, file);
    });
  });
  app.delete('/quick-messages/:id/media-upload', one, (request) =>
    setQuickMessageMedia(ctx(request), deps.storage, request.params.id, null),
  );
};
