import { idParam, promptInput, promptSchema, promptsListReply, promptUpdate } from '@balcao/shared';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { encryptionKeyOf } from '../../platform/secrets.js';
import { createPrompt, deletePrompt, findPrompt, listPrompts, updatePrompt } from './prompts.service.js';

/**
 * `/prompt` (spec part 2 §7): the company's members read (the connection and queue dialogs list
 * them), admins write; all of it under the plan's `useOpenAi`.
 */
export const promptsRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['prompts'];
  const ctx = serviceContext.bind(null, deps);
  const key = encryptionKeyOf(deps.config);
  const read = guards.plan('useOpenAi');
  const write = guards.planAdmin('useOpenAi');
  app.get('/prompt', { onRequest: read, schema: { tags, response: { 200: promptsListReply } } }, (request) =>
    listPrompts(ctx(request), key),
  );
  app.get(
    '/prompt/:id',
    { onRequest: read, schema: { tags, params: idParam, response: { 200: promptSchema } } },
    (request) => findPrompt(ctx(request), key, request.params.id),
  );
  app.post(
    '/prompt',
    { onRequest: write, schema: { tags, body: promptInput, response: { 201: promptSchema } } },
    async (request, reply) => reply.status(201).send(await createPrompt(ctx(request), key, request.body)),
  );
  app.put(
    '/prompt/:id',
    { onRequest: write, schema: { tags, params: idParam, body: promptUpdate, response: { 200: promptSchema } } },
    (request) => updatePrompt(ctx(request), key, request.params.id, request.body),
  );
  app.delete('/prompt/:id', { onRequest: write, schema: { tags, params: idParam } }, async (request) => {
    await deletePrompt(ctx(request), request.params.id);
    return { message: 'Prompt deleted' };
  });
};
