import type { ModuleRoutes } from '../../platform/http/types.js';
import { callerOf } from '../../platform/tenancy/guards.js';
import { listQueues } from './queues.service.js';

export const queuesRoutes: ModuleRoutes = (app, deps, guards) => {
  app.get('/queue', { preHandler: guards.auth, schema: { tags: ['queues'] } }, (request) =>
    listQueues(deps.database.db, callerOf(request).companyId),
  );
};
