import {
  AVATAR_MAX_BYTES,
  idParam,
  userInput,
  userRefList,
  userSchema,
  usersListQuery,
  usersListReply,
  userUpdate,
} from '@balcao/shared';
import { AppError } from '../../platform/errors/app-error.js';
import { readMultipartForm, uploadRoutes } from '../../platform/http/multipart.js';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { callerOf } from '../../platform/tenancy/guards.js';
import { avatarEditable, setUserAvatar } from './users.avatar.js';
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
    await deleteUser(serviceContext(deps, request), request.params.id, deps.storage);
    return { message: 'User deleted' };
  });
  // Beyond the spec: the profile dialog's picture (multipart field `file`, PNG or JPEG).
  const avatar = { onRequest: guards.auth, schema: { tags, params: idParam, response: { 200: userSchema } } };
  uploadRoutes(app, (uploads) => {
    uploads.post('/users/:id/avatar', avatar, async (request) => {
      const ctx = serviceContext(deps, request);
      // Refused before the upload is read.
      await avatarEditable(ctx, request.params.id);
      const [file] = (await readMultipartForm(request, 'file', { maxFileBytes: AVATAR_MAX_BYTES })).files;
      if (!file) throw new AppError('ERR_VALIDATION', {}, 'file is required');
      return setUserAvatar(ctx, deps.storage, request.params.id, file);
    });
  });
  app.delete('/users/:id/avatar', avatar, (request) =>
    setUserAvatar(serviceContext(deps, request), deps.storage, request.params.id, null),
  );
};
