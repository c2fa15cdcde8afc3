import { dashboardQuery, dashboardReply } from '@balcao/shared';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { getDashboard } from './dashboard.service.js';

export const dashboardRoutes: ModuleRoutes = (app, deps, guards) => {
  // Spec part 2 §6: the dashboard is the admins'.
  app.get(
    '/dashboard',
    {
      onRequest: guards.admin,
      schema: { tags: ['dashboard'], querystring: dashboardQuery, response: { 200: dashboardReply } },
    },
    (request) => getDashboard(serviceContext(deps, request), request.query),
  );
};
