import { helpInput, helpSchema, helpsListQuery, helpsListReply, helpUpdate, idParam, okReply } from '@balcao/shared';
import { z } from 'zod';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { allHelps, createHelp, deleteHelp, listHelps, updateHelp } from './helps.service.js';

/** Help videos (spec part 2 §7 "Help", DOMAIN §15): every signed-in user reads, the super user edits. */
export const helpsRoutes: ModuleRoutes = (app, deps, guards) => {
  const db = deps.database.db;
  const tags = ['helps'];
  app.get(
    '/helps',
    { onRequest: guards.auth, schema: { tags, querystring: helpsListQuery, response: { 200: helpsListReply } } },
    (request) => listHelps(db, request.query),
  );
  app.get('/helps/list', { onRequest: guards.auth, schema: { tags, response: { 200: z.array(helpSchema) } } }, () =>
    allHelps(db),
  );
  app.post(
    '/helps',
    { onRequest: guards.superUser, schema: { tags, body: helpInput, response: { 201: helpSchema } } },
    async (request, reply) => reply.status(201).send(await createHelp(db, request.body)),
  );
  app.put(
    '/helps/:id',
    { onRequest: guards.superUser, schema: { tags, params: idParam, body: helpUpdate, response: { 200: helpSchema } } },
    (request) => updateHelp(db, request.params.id, request.body),
  );
  app.delete(
    '/helps/:id',
    { onRequest: guards.superUser, schema: { tags, params: idParam, response: { 200: okReply } } },
    async (request) => {
      await deleteHelp(db, request.params.id);
      return { message: 'Help deleted' };
    },
  );
};
