import {
  idParam,
  integrationTestInput,
  integrationTestReply,
  okReply,
  queueIntegrationInput,
  queueIntegrationSchema,
  queueIntegrationsQuery,
  queueIntegrationsReply,
  queueIntegrationUpdate,
} from '@balcao/shared';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { encryptionKeyOf } from '../../platform/secrets.js';
import { testIntegration } from './integrations.probe.js';
import {
  createIntegration,
  deleteIntegration,
  findIntegration,
  listIntegrations,
  updateIntegration,
} from './integrations.service.js';

/**
 * `/queueIntegration` (spec part 2 §7): members read (the connection and queue dialogs list them),
 * admins write and test; all of it under the plan's `useIntegrations`. `GET /queueIntegration/` with
 * `searchParam` or `pageNumber` is the page's paged list; without them, the plain list.
 */
export const integrationsRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['queue integrations'];
  const ctx = serviceContext.bind(null, deps);
  const key = encryptionKeyOf(deps.config);
  const read = guards.plan('useIntegrations');
  const write = guards.planAdmin('useIntegrations');
  app.get(
    '/queueIntegration',
    {
      onRequest: read,
      schema: { tags, querystring: queueIntegrationsQuery, response: { 200: queueIntegrationsReply } },
    },
    (request) => listIntegrations(ctx(request), key, request.query),
  );
  app.post(
    '/queueIntegration/testSession',
    { onRequest: write, schema: { tags, body: integrationTestInput, response: { 200: integrationTestReply } } },
    (request) => testIntegration(deps, ctx(request), key, request.body),
  );
  app.get(
    '/queueIntegration/:id',
    { onRequest: read, schema: { tags, params: idParam, response: { 200: queueIntegrationSchema } } },
    (request) => findIntegration(ctx(request), key, request.params.id),
  );
  app.post(
    '/queueIntegration',
    { onRequest: write, schema: { tags, body: queueIntegrationInput, response: { 201: queueIntegrationSchema } } },
    async (request, reply) => reply.status(201).send(await createIntegration(ctx(request), key, request.body)),
  );
  app.put(
    '/queueIntegration/:id',
    {
      onRequest: write,
      schema: { tags, params: idParam, body: queueIntegrationUpdate, response: { 200: queueIntegrationSchema } },
    },
    (request) => updateIntegration(ctx(request), key, request.params.id, request.body),
  );
  app.delete(
    '/queueIntegration/:id',
    { onRequest: write, schema: { tags, params: idParam, response: { 200: okReply } } },
    async (request) => {
      await deleteIntegration(ctx(request), key, request.params.id);
      return { message: 'Integration deleted' };
    },
  );
};
