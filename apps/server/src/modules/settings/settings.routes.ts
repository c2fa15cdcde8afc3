import { settingKeyParam, settingSchema, settingUpdate } from '@balcao/shared';
import { z } from 'zod';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { encryptionKeyOf } from '../../platform/secrets.js';
import { isAdmin } from '../../platform/tenancy/context.js';
import { callerOf } from '../../platform/tenancy/guards.js';
import { listSettings, updateSetting } from './settings.service.js';

export const settingsRoutes: ModuleRoutes = (app, deps, guards) => {
  const secretsKey = encryptionKeyOf(deps.config);
  app.get(
    '/settings',
    { onRequest: guards.auth, schema: { tags: ['settings'], response: { 200: z.array(settingSchema) } } },
    (request) => {
      const caller = callerOf(request);
      return listSettings(deps.database.db, caller.companyId, { admin: isAdmin(caller), secretsKey });
    },
  );
  app.put(
    '/settings/:key',
    {
      onRequest: guards.admin,
      schema: { tags: ['settings'], params: settingKeyParam, body: settingUpdate, response: { 200: settingSchema } },
    },
    (request) => updateSetting(serviceContext(deps, request), secretsKey, request.params.key, request.body.value),
  );
};
