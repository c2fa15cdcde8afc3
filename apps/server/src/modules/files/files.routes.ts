import {
  FILE_OPTION_MAX_BYTES,
  fileListInput,
  fileListSchema,
  fileListsQuery,
  fileListsReply,
  fileListUpdate,
  idParam,
  intId,
  okReply,
} from '@balcao/shared';
import { AppError } from '../../platform/errors/app-error.js';
import { readMultipartForm, uploadRoutes } from '../../platform/http/multipart.js';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import {
  createFileList,
  deleteFileList,
  findFileList,
  listFileLists,
  updateFileList,
  uploadFileListOptions,
} from './files.service.js';

const optionIdOf = (value: string | undefined) => {
  const parsed = intId().safeParse(value);
  if (!parsed.success) throw new AppError('ERR_VALIDATION', {}, 'Every file needs the id of its option');
  return parsed.data;
};

/**
 * Spec part 2 §7 "Files". Any member reads (a ticket can send a list's files); admins write. Not
 * plan-gated: the spec's `/files` route has no plan flag, unlike campaigns.
 */
export const filesRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['files'];
  const ctx = serviceContext.bind(null, deps);
  app.get(
    '/files',
    { onRequest: guards.auth, schema: { tags, querystring: fileListsQuery, response: { 200: fileListsReply } } },
    (request) => listFileLists(ctx(request), request.query),
  );
  app.get(
    '/files/:id',
    { onRequest: guards.auth, schema: { tags, params: idParam, response: { 200: fileListSchema } } },
    (request) => findFileList(ctx(request), request.params.id),
  );
  app.post(
    '/files',
    { onRequest: guards.admin, schema: { tags, body: fileListInput, response: { 201: fileListSchema } } },
    async (request, reply) => reply.status(201).send(await createFileList(ctx(request), request.body)),
  );
  app.put(
    '/files/:id',
    {
      onRequest: guards.admin,
      schema: { tags, params: idParam, body: fileListUpdate, response: { 200: fileListSchema } },
    },
    (request) => updateFileList(ctx(request), deps.storage, request.params.id, request.body),
  );
  /**
   * The spec's form repeats `files`, `id`, `name`, `mediaType` per option: the n-th file goes to the
   * option of the n-th `id`. `name` and `mediaType` are ignored (the name is the option's, the type is
   * read from the bytes), as are `fileId` (the list is the path's) and `typeArch`.
   */
  uploadRoutes(app, (uploads) => {
    uploads.post(
      '/files/uploadList/:id',
      { onRequest: guards.admin, schema: { tags, params: idParam, response: { 200: fileListSchema } } },
      async (request) => {
        // The list is looked up before the body is read: another company's id costs no upload.
        await findFileList(ctx(request), request.params.id);
        const form = await readMultipartForm(request, 'files', { maxFileBytes: FILE_OPTION_MAX_BYTES });
        const ids = form.repeated.id ?? [];
        if (ids.length !== form.files.length)
          throw new AppError('ERR_VALIDATION', {}, 'Send one id per file, in the same order');
        const uploads = form.files.map((file, i) => ({ optionId: optionIdOf(ids[i]), file }));
        return uploadFileListOptions(ctx(request), deps.storage, request.params.id, uploads);
      },
    );
  });
  app.delete(
    '/files/:id',
    { onRequest: guards.admin, schema: { tags, params: idParam, response: { 200: okReply } } },
    async (request) => {
      await deleteFileList(ctx(request), deps.storage, request.params.id);
      return { message: 'File list deleted' };
    },
  );
};
