import {
  idParam,
  tagInput,
  tagSchema,
  tagsKanbanReply,
  tagsListQuery,
  tagsListReply,
  tagsSyncInput,
  tagUpdate,
} from '@balcao/shared';
import { z } from 'zod';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { callerOf } from '../../platform/tenancy/guards.js';
import { syncTicketTags } from '../ticket-tags/ticket-tags.service.js';
import { allTags, createTag, deleteTag, findTag, kanbanTags, listTags, updateTag } from './tags.service.js';

export const tagsRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['tags'];
  const ctx = serviceContext.bind(null, deps);
  const db = deps.database.db;
  app.get(
    '/tags',
    { onRequest: guards.auth, schema: { tags, querystring: tagsListQuery, response: { 200: tagsListReply } } },
    (request) => listTags(ctx(request), request.query),
  );
  app.get(
    '/tags/list',
    { onRequest: guards.auth, schema: { tags, response: { 200: z.array(tagSchema) } } },
    (request) => allTags(db, callerOf(request).companyId),
  );
  // The kanban module's read (plan flag useKanban); the tags page and its kanban toggle are not gated.
  app.get(
    '/tags/kanban',
    { onRequest: guards.plan('useKanban'), schema: { tags, response: { 200: tagsKanbanReply } } },
    async (request) => ({ lista: await kanbanTags(db, callerOf(request).companyId) }),
  );
  app.get(
    '/tags/:id',
    { onRequest: guards.auth, schema: { tags, params: idParam, response: { 200: tagSchema } } },
    (request) => findTag(db, callerOf(request).companyId, request.params.id),
  );
  app.post(
    '/tags',
    { onRequest: guards.auth, schema: { tags, body: tagInput, response: { 201: tagSchema } } },
    async (request, reply) => reply.status(201).send(await createTag(ctx(request), request.body)),
  );
  app.put(
    '/tags/:id',
    { onRequest: guards.auth, schema: { tags, params: idParam, body: tagUpdate, response: { 200: tagSchema } } },
    (request) => updateTag(ctx(request), request.params.id, request.body),
  );
  app.delete('/tags/:id', { onRequest: guards.admin, schema: { tags, params: idParam } }, async (request) => {
    await deleteTag(ctx(request), request.params.id);
    return { message: 'Tag deleted' };
  });
  app.post('/tags/sync', { onRequest: guards.auth, schema: { tags, body: tagsSyncInput } }, async (request) => ({
    tags: await syncTicketTags(
      ctx(request),
      request.body.ticketId,
      request.body.tags.map((t) => t.id),
    ),
  }));
};
