import { idParam, planInput, planSchema, planUpdate } from '@balcao/shared';
import { z } from 'zod';
import type { ModuleRoutes } from '../../platform/http/types.js';
import { callerOf } from '../../platform/tenancy/guards.js';
import { createPlan, deletePlan, getPlan, listPlans, planOfCompany, updatePlan } from './plans.service.js';

const plansReply = { 200: z.array(planSchema) };

export const plansRoutes: ModuleRoutes = (app, deps, guards) => {
  const db = deps.database.db;
  // Public: the sign-up and checkout screens show the plans before anyone logs in.
  app.get('/plans/list', { schema: { tags: ['plans'], response: plansReply } }, () => listPlans(db));
  app.get('/plans/all', { onRequest: guards.auth, schema: { tags: ['plans'], response: plansReply } }, () =>
    listPlans(db),
  );
  app.get(
    '/plans/:id',
    { onRequest: guards.auth, schema: { tags: ['plans'], params: idParam, response: { 200: planSchema } } },
    (request) => getPlan(db, request.params.id),
  );
  app.post(
    '/plans',
    { onRequest: guards.superUser, schema: { tags: ['plans'], body: planInput, response: { 201: planSchema } } },
    async (request, reply) => reply.status(201).send(await createPlan(db, request.body)),
  );
  app.put(
    '/plans/:id',
    {
      onRequest: guards.superUser,
      schema: { tags: ['plans'], params: idParam, body: planUpdate, response: { 200: planSchema } },
    },
    (request) => updatePlan(db, request.params.id, request.body),
  );
  app.delete(
    '/plans/:id',
    { onRequest: guards.superUser, schema: { tags: ['plans'], params: idParam } },
    async (request) => {
      await deletePlan(db, request.params.id);
      return { message: 'Plan deleted' };
    },
  );
  app.get(
    '/companies/listPlan/:id',
    { onRequest: guards.auth, schema: { tags: ['plans'], params: idParam, response: { 200: planSchema } } },
    (request) => planOfCompany(db, callerOf(request), request.params.id),
  );
};
