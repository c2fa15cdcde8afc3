import { idParam, queueInput, queueSchema, queueUpdate } from '@balcao/shared';
import { z } from 'zod';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { callerOf } from '../../platform/tenancy/guards.js';
import { createQueue, deleteQueue, findQueue, listQueues, updateQueue } from './queues.service.js';

export const queuesRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['queues'];
  const ctx = serviceContext.bind(null, deps);
  app.get('/queue', { onRequest: guards.auth, schema: { tags, response: { 200: z.array(queueSchema) } } }, (request) =>
    listQueues(deps.database.db, callerOf(request).companyId),
  );
  app.get(
    '/queue/:id',
    { onRequest: guards.auth, schema: { tags, params: idParam, response: { 200: queueSchema } } },
    (request) => findQueue(deps.database.db, callerOf(request).companyId, request.params.id),
  );
  app.post(
    '/queue',
    { onRequest: guards.admin, schema: { tags, body: queueInput, response: { 201: queueSchema } } },
    async (request, reply) => reply.status(201).send(await createQueue(ctx(request), request.body)),
  );
  app.put(
    '/queue/:id',
    { onRequest: guards.admin, schema: { tags, params: idParam, body: queueUpdate, response: { 200: queueSchema } } },
    (request) => updateQueue(ctx(request), request.params.id, request.body),
  );
  app.delete('/queue/:id', { onRequest: guards.admin, schema: { tags, params: idParam } }, async (request) => {
    await deleteQueue(ctx(request), request.params.id);
    return { message: 'Queue deleted' };
  });
};
