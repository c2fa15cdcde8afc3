import {
  idParam,
  userInput,
  userRefList,
  userSchema,
  usersListQuery,
  usersListReply,
  userUpdate,
} from '@balcao/shared';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { callerOf } from '../../platform/tenancy/guards.js';
import { createUser, deleteUser, getUser, listUserRefs, listUsers, updateUser } from './users.service.js';

export const usersRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['users'];
  app.get(
    '/users',
    { onRequest: guards.admin, schema: { tags, querystring: usersListQuery, response: { 200: usersListReply } } },
    (request) => listUsers(serviceContext(deps, request), request.query),
  );
  app.get('/users/list', { onRequest: guards.auth, schema: { tags, response: { 200: userRefList } } }, (request) =>
    listUserRefs(deps.database.db, callerOf(request).companyId),
  );
  app.get(
    '/users/:id',
    { onRequest: guards.auth, schema: { tags, params: idParam, response: { 200: userSchema } } },
    (request) => getUser(serviceContext(deps, request), request.params.id),
  );
  app.post(
    '/users',
    { onRequest: guards.admin, schema: { tags, body: userInput, response: { 201: userSchema } } },
    async (request, reply) => reply.status(201).send(await createUser(serviceContext(deps, request), request.body)),
  );
  app.put(
    '/users/:id',
    { onRequest: guards.auth, schema: { tags, params: idParam, body: userUpdate, response: { 200: userSchema } } },
    (request) => updateUser(serviceContext(deps, request), request.params.id, request.body),
  );
  app.delete('/users/:id', { onRequest: guards.admin, schema: { tags, params: idParam } }, async (request) => {
    await deleteUser(serviceContext(deps, request), request.params.id);
    return { message: 'User deleted' };
  });
};
