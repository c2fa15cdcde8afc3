import { companyCreate, companySchedulesInput, companySchema, companyUpdate, idParam, pageQuery } from '@balcao/shared';
import { z } from 'zod';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { callerOf, requireAdmin } from '../../platform/tenancy/guards.js';
import {
  createCompany,
  deleteCompany,
  getCompany,
  listAllCompanies,
  listCompanies,
  updateCompany,
  updateCompanySchedules,
} from './companies.service.js';

export const companiesRoutes: ModuleRoutes = (app, deps, guards) => {
  const db = deps.database.db;
  const tags = ['companies'];
  app.get(
    '/companies',
    {
      onRequest: guards.superUser,
      schema: {
        tags,
        querystring: pageQuery,
        response: { 200: z.object({ companies: z.array(companySchema), count: z.number(), hasMore: z.boolean() }) },
      },
    },
    (request) => listCompanies(db, request.query),
  );
  app.get(
    '/companies/list',
    { onRequest: guards.superUser, schema: { tags, response: { 200: z.array(companySchema) } } },
    () => listAllCompanies(db),
  );
  app.get(
    '/companies/:id',
    { onRequest: guards.auth, schema: { tags, params: idParam, response: { 200: companySchema } } },
    (request) => getCompany(db, callerOf(request), request.params.id),
  );
  app.post(
    '/companies',
    { onRequest: guards.superUser, schema: { tags, body: companyCreate, response: { 201: companySchema } } },
    async (request, reply) => reply.status(201).send(await createCompany(serviceContext(deps, request), request.body)),
  );
  app.put(
    '/companies/:id',
    {
      onRequest: guards.superUser,
      schema: { tags, params: idParam, body: companyUpdate, response: { 200: companySchema } },
    },
    (request) => updateCompany(serviceContext(deps, request), request.params.id, request.body),
  );
  app.delete('/companies/:id', { onRequest: guards.superUser, schema: { tags, params: idParam } }, async (request) => {
    await deleteCompany(serviceContext(deps, request), request.params.id);
    return { message: 'Company deleted' };
  });
  app.put(
    '/companies/:id/schedules',
    {
      onRequest: [guards.auth, requireAdmin],
      schema: { tags, params: idParam, body: companySchedulesInput, response: { 200: companySchema } },
    },
    (request) => updateCompanySchedules(serviceContext(deps, request), request.params.id, request.body.schedules),
  );
};
