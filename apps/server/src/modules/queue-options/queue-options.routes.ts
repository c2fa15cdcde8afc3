import { idParam, queueOptionInput, queueOptionSchema, queueOptionsQuery, queueOptionUpdate } from '@balcao/shared';
import { z } from 'zod';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { createOption, deleteOption, listOptions, updateOption } from './queue-options.service.js';

export const queueOptionsRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['queues'];
  const ctx = serviceContext.bind(null, deps);
  app.get(
    '/queue-options',
    {
      onRequest: guards.auth,
      schema: { tags, querystring: queueOptionsQuery, response: { 200: z.array(queueOptionSchema) } },
    },
    (request) => {
      const { queueId, parentId } = request.query;
      return listOptions(ctx(request), queueId, typeof parentId === 'number' ? parentId : null);
    },
  );
  app.post(
    '/queue-options',
    { onRequest: guards.admin, schema: { tags, body: queueOptionInput, response: { 201: queueOptionSchema } } },
    async (request, reply) => reply.status(201).send(await createOption(ctx(request), request.body)),
  );
  app.put(
    '/queue-options/:id',
    {
      onRequest: guards.admin,
      schema: { tags, params: idParam, body: queueOptionUpdate, response: { 200: queueOptionSchema } },
    },
    (request) => updateOption(ctx(request), request.params.id, request.body),
  );
  app.delete('/queue-options/:id', { onRequest: guards.admin, schema: { tags, params: idParam } }, async (request) => {
    await deleteOption(ctx(request), request.params.id);
    return { message: 'Option deleted' };
  });
};
