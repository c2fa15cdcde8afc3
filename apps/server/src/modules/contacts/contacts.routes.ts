import {
  contactInput,
  contactSchema,
  contactsListQuery,
  contactsListReply,
  contactsSimpleQuery,
  contactUpdate,
  idParam,
} from '@balcao/shared';
import { z } from 'zod';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import {
  createContact,
  deleteContact,
  findContact,
  listContacts,
  searchContacts,
  updateContact,
} from './contacts.service.js';

export const contactsRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['contacts'];
  const ctx = serviceContext.bind(null, deps);
  app.get(
    '/contacts',
    { onRequest: guards.auth, schema: { tags, querystring: contactsListQuery, response: { 200: contactsListReply } } },
    (request) => listContacts(ctx(request), request.query),
  );
  app.get(
    '/contacts/list',
    {
      onRequest: guards.auth,
      schema: { tags, querystring: contactsSimpleQuery, response: { 200: z.array(contactSchema) } },
    },
    (request) => searchContacts(ctx(request), request.query.searchParam || request.query.name),
  );
  app.get(
    '/contacts/:id',
    { onRequest: guards.auth, schema: { tags, params: idParam, response: { 200: contactSchema } } },
    (request) => findContact(deps.database.db, ctx(request).companyId, request.params.id),
  );
  app.post(
    '/contacts',
    { onRequest: guards.auth, schema: { tags, body: contactInput, response: { 201: contactSchema } } },
    async (request, reply) => reply.status(201).send(await createContact(ctx(request), request.body)),
  );
  app.put(
    '/contacts/:id',
    {
      onRequest: guards.auth,
      schema: { tags, params: idParam, body: contactUpdate, response: { 200: contactSchema } },
    },
    (request) => updateContact(ctx(request), request.params.id, request.body),
  );
  app.delete('/contacts/:id', { onRequest: guards.admin, schema: { tags, params: idParam } }, async (request) => {
    await deleteContact(ctx(request), request.params.id, deps.storage);
    return { message: 'Contact deleted' };
  });
};
