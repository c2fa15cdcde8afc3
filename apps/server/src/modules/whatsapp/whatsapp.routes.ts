import {
  idParam,
  whatsappInput,
  whatsappListQuery,
  whatsappSchema,
  whatsappTokenReply,
  whatsappUpdate,
} from '@balcao/shared';
import { z } from 'zod';
import { sealProviderConfig } from '../../channels/cloud/cloud.crypto.js';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { encryptionKeyOf } from '../../platform/secrets.js';
import { callerOf } from '../../platform/tenancy/guards.js';
import {
  createWhatsapp,
  deleteWhatsapp,
  findWhatsapp,
  generateWhatsappToken,
  listWhatsapps,
  type SealProviderConfig,
  updateWhatsapp,
} from './whatsapp.service.js';

export const whatsappRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['connections'];
  const ctx = serviceContext.bind(null, deps);
  const db = deps.database.db;
  // Provider secrets (Cloud API token and app secret) are encrypted before they are stored.
  const seal: SealProviderConfig = (provider, input, current) =>
    sealProviderConfig(encryptionKeyOf(deps.config), provider, input, current);
  app.get(
    '/whatsapp',
    {
      onRequest: guards.auth,
      schema: { tags, querystring: whatsappListQuery, response: { 200: z.array(whatsappSchema) } },
    },
    (request) => listWhatsapps(db, callerOf(request).companyId),
  );
  app.get(
    '/whatsapp/:id',
    { onRequest: guards.auth, schema: { tags, params: idParam, response: { 200: whatsappSchema } } },
    (request) => findWhatsapp(db, callerOf(request).companyId, request.params.id),
  );
  app.post(
    '/whatsapp',
    { onRequest: guards.admin, schema: { tags, body: whatsappInput, response: { 201: whatsappSchema } } },
    async (request, reply) =>
      reply.status(201).send(await createWhatsapp(ctx(request), request.body, deps.config.sandboxEnabled, seal)),
  );
  app.put(
    '/whatsapp/:id',
    {
      onRequest: guards.admin,
      schema: { tags, params: idParam, body: whatsappUpdate, response: { 200: whatsappSchema } },
    },
    (request) => updateWhatsapp(ctx(request), request.params.id, request.body, seal),
  );
  app.delete('/whatsapp/:id', { onRequest: guards.admin, schema: { tags, params: idParam } }, async (request) => {
    const c = ctx(request);
    await findWhatsapp(db, c.companyId, request.params.id);
    await deps.channels.stop(request.params.id);
    await deleteWhatsapp(c, request.params.id);
    return { message: 'Whatsapp deleted' };
  });

  // The external API's token (DOMAIN §10): generated or replaced by an admin, shown only in this reply.
  app.post(
    '/whatsapp/:id/token',
    {
      onRequest: guards.planAdmin('useExternalApi'),
      schema: { tags, params: idParam, response: { 200: whatsappTokenReply } },
    },
    async (request) => ({ token: await generateWhatsappToken(ctx(request), request.params.id) }),
  );

  // Sessions (spec §7): start, restart with a new QR code, disconnect.
  const session = { onRequest: guards.admin, schema: { tags, params: idParam } };
  app.post('/whatsappsession/:id', session, async (request) => {
    await deps.channels.start(callerOf(request).companyId, request.params.id);
    return { message: 'Starting session' };
  });
  app.put('/whatsappsession/:id', session, async (request) => {
    const { companyId } = callerOf(request);
    await findWhatsapp(db, companyId, request.params.id);
    await deps.channels.logout(companyId, request.params.id);
    await deps.channels.start(companyId, request.params.id);
    return { message: 'Starting session' };
  });
  app.delete('/whatsappsession/:id', session, async (request) => {
    const { companyId } = callerOf(request);
    await findWhatsapp(db, companyId, request.params.id);
    await deps.channels.logout(companyId, request.params.id);
    return { message: 'Session disconnected' };
  });
};
