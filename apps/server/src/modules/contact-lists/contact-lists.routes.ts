import {
  contactImportSchema,
  contactListInput,
  contactListItemInput,
  contactListItemSchema,
  contactListItemsQuery,
  contactListItemsReply,
  contactListItemUpdate,
  contactListOption,
  contactListSchema,
  contactListsQuery,
  contactListsReply,
  contactListUpdate,
  idParam,
} from '@balcao/shared';
import { z } from 'zod';
import { uploadRoutes } from '../../platform/http/multipart.js';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { callerOf } from '../../platform/tenancy/guards.js';
import { startImport } from '../contacts/contacts.import.js';
import { importFile } from '../contacts/contacts.routes.js';
import {
  allContactLists,
  createContactList,
  createContactListItem,
  deleteContactList,
  deleteContactListItem,
  findContactList,
  findContactListItem,
  listContactListItems,
  listContactLists,
  updateContactList,
  updateContactListItem,
} from './contact-lists.service.js';

/** Contact lists serve campaigns: every route is gated by the plan flag useCampaigns. */
export const contactListsRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['contact-lists'];
  const ctx = serviceContext.bind(null, deps);
  const db = deps.database.db;
  const gate = guards.plan('useCampaigns');
  const admin = guards.planAdmin('useCampaigns');
  app.get(
    '/contact-lists',
    { onRequest: gate, schema: { tags, querystring: contactListsQuery, response: { 200: contactListsReply } } },
    (request) => listContactLists(ctx(request), request.query),
  );
  app.get(
    '/contact-lists/list',
    { onRequest: gate, schema: { tags, response: { 200: z.array(contactListOption) } } },
    (request) => allContactLists(db, callerOf(request).companyId),
  );
  app.get(
    '/contact-lists/:id',
    { onRequest: gate, schema: { tags, params: idParam, response: { 200: contactListSchema } } },
    (request) => findContactList(db, callerOf(request).companyId, request.params.id),
  );
  app.post(
    '/contact-lists',
    { onRequest: gate, schema: { tags, body: contactListInput, response: { 201: contactListSchema } } },
    async (request, reply) => reply.status(201).send(await createContactList(ctx(request), request.body)),
  );
  app.put(
    '/contact-lists/:id',
    {
      onRequest: gate,
      schema: { tags, params: idParam, body: contactListUpdate, response: { 200: contactListSchema } },
    },
    (request) => updateContactList(ctx(request), request.params.id, request.body),
  );
  app.delete('/contact-lists/:id', { onRequest: admin, schema: { tags, params: idParam } }, async (request) => {
    await deleteContactList(ctx(request), request.params.id);
    return { message: 'Contact list deleted' };
  });
  uploadRoutes(app, (uploads) => {
    uploads.post(
      '/contact-lists/:id/upload',
      { onRequest: gate, schema: { tags, params: idParam, response: { 202: contactImportSchema } } },
      async (request, reply) => {
        await findContactList(db, callerOf(request).companyId, request.params.id);
        const file = await importFile(request);
        return reply.status(202).send(await startImport(ctx(request), deps.storage, file, request.params.id));
      },
    );
  });

  app.get(
    '/contact-list-items',
    {
      onRequest: gate,
      schema: { tags, querystring: contactListItemsQuery, response: { 200: contactListItemsReply } },
    },
    (request) => listContactListItems(ctx(request), request.query),
  );
  app.get(
    '/contact-list-items/:id',
    { onRequest: gate, schema: { tags, params: idParam, response: { 200: contactListItemSchema } } },
    (request) => findContactListItem(db, callerOf(request).companyId, request.params.id),
  );
  app.post(
    '/contact-list-items',
    { onRequest: gate, schema: { tags, body: contactListItemInput, response: { 201: contactListItemSchema } } },
    async (request, reply) => reply.status(201).send(await createContactListItem(ctx(request), request.body)),
  );
  app.put(
    '/contact-list-items/:id',
    {
      onRequest: gate,
      schema: { tags, params: idParam, body: contactListItemUpdate, response: { 200: contactListItemSchema } },
    },
    (request) => updateContactListItem(ctx(request), request.params.id, request.body),
  );
  app.delete('/contact-list-items/:id', { onRequest: gate, schema: { tags, params: idParam } }, async (request) => {
    await deleteContactListItem(ctx(request), request.params.id);
    return { message: 'Contact list item deleted' };
  });
};
