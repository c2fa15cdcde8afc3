import { Readable } from 'node:stream';
import {
  contactImportSchema,
  contactInput,
  contactSchema,
  contactsListQuery,
  contactsListReply,
  contactsSimpleQuery,
  contactUpdate,
  IMPORT_MAX_BYTES,
  idParam,
} from '@balcao/shared';
import { z } from 'zod';
import { AppError } from '../../platform/errors/app-error.js';
import { type FormFile, readMultipartForm, uploadRoutes } from '../../platform/http/multipart.js';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { callerOf } from '../../platform/tenancy/guards.js';
import { findImport, findImportView, startImport } from './contacts.import.js';
import {
  createContact,
  deleteContact,
  exportContactsCsv,
  findContact,
  listContacts,
  searchContacts,
  updateContact,
} from './contacts.service.js';

export const contactsRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['contacts'];
  const ctx = serviceContext.bind(null, deps);
  app.get(
    '/contacts',
    { onRequest: guards.auth, schema: { tags, querystring: contactsListQuery, response: { 200: contactsListReply } } },
    (request) => listContacts(ctx(request), request.query),
  );
  app.get(
    '/contacts/list',
    {
      onRequest: guards.auth,
      schema: { tags, querystring: contactsSimpleQuery, response: { 200: z.array(contactSchema) } },
    },
    (request) => searchContacts(ctx(request), request.query.searchParam || request.query.name),
  );
  // DOMAIN §12: the upload answers at once; a job parses and stores the rows (not plan-gated).
  uploadRoutes(app, (uploads) => {
    uploads.post(
      '/contacts/import',
      { onRequest: guards.auth, schema: { tags, response: { 202: contactImportSchema } } },
      async (request, reply) =>
        reply.status(202).send(await startImport(ctx(request), deps.storage, await importFile(request), null)),
    );
  });
  app.get(
    '/contacts/import/:id',
    { onRequest: guards.auth, schema: { tags, params: idParam, response: { 200: contactImportSchema } } },
    (request) => findImportView(ctx(request), request.params.id),
  );
  app.get(
    '/contacts/import/:id/rejected',
    { onRequest: guards.auth, schema: { tags, params: idParam } },
    async (request, reply) => {
      const row = await findImport(ctx(request), request.params.id);
      const file = row.rejectedKey ? await deps.storage.open(row.rejectedKey) : null;
      if (!file) throw new AppError('ERR_MEDIA_NOT_FOUND');
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="rejeitados-${row.id}.csv"`)
        .send(file.stream);
    },
  );
  // Beyond the spec's client-side export: streamed, so a big company's contacts never sit in memory.
  app.get('/contacts/export', { onRequest: guards.auth, schema: { tags } }, (request, reply) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="contatos.csv"')
      .send(Readable.from(exportContactsCsv(deps.database.db, callerOf(request).companyId))),
  );
  app.get(
    '/contacts/:id',
    { onRequest: guards.auth, schema: { tags, params: idParam, response: { 200: contactSchema } } },
    (request) => findContact(deps.database.db, ctx(request).companyId, request.params.id),
  );
  app.post(
    '/contacts',
    { onRequest: guards.auth, schema: { tags, body: contactInput, response: { 201: contactSchema } } },
    async (request, reply) => reply.status(201).send(await createContact(ctx(request), request.body)),
  );
  app.put(
    '/contacts/:id',
    {
      onRequest: guards.auth,
      schema: { tags, params: idParam, body: contactUpdate, response: { 200: contactSchema } },
    },
    (request) => updateContact(ctx(request), request.params.id, request.body),
  );
  app.delete('/contacts/:id', { onRequest: guards.admin, schema: { tags, params: idParam } }, async (request) => {
    await deleteContact(ctx(request), request.params.id, deps.storage);
    return { message: 'Contact deleted' };
  });
};

/** The import's file (field `file`, at most 5 MB): a larger one is ERR_IMPORT_FILE_TOO_LARGE (413). */
export async function importFile(request: import('fastify').FastifyRequest): Promise<FormFile> {
  const form = await readMultipartForm(request, 'file', { maxFileBytes: IMPORT_MAX_BYTES }).catch((err) => {
    throw (err as { statusCode?: number }).statusCode === 413 ? new AppError('ERR_IMPORT_FILE_TOO_LARGE') : err;
  });
  const file = form.files[0];
  if (!file) throw new AppError('ERR_VALIDATION', {}, 'A file is required');
  return file;
}
