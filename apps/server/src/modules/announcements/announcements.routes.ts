import {
  ANNOUNCEMENT_MEDIA_MAX_BYTES,
  activeAnnouncementsQuery,
  announcementInput,
  announcementSchema,
  announcementsListQuery,
  announcementsListReply,
  announcementUpdate,
  idParam,
  intId,
  okReply,
} from '@balcao/shared';
import { z } from 'zod';
import { AppError } from '../../platform/errors/app-error.js';
import { readMultipartForm, uploadRoutes } from '../../platform/http/multipart.js';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { sendFile } from '../../platform/storage/media.routes.js';
import {
  announcementMediaKey,
  createAnnouncement,
  deleteAnnouncement,
  findAnnouncement,
  listActiveAnnouncements,
  listAnnouncements,
  setAnnouncementMedia,
  updateAnnouncement,
} from './announcements.service.js';

/**
 * Spec part 2 §7 calls, super user only (DOMAIN §15), plus two reads for every signed-in user
 * (beyond the spec): `GET /announcements/active` (the top bar's popover) and the image of an active
 * announcement.
 */
export const announcementsRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['announcements'];
  const ctx = serviceContext.bind(null, deps);
  const one = {
    onRequest: guards.superUser,
    schema: { tags, params: idParam, response: { 200: announcementSchema } },
  };
  app.get(
    '/announcements',
    {
      onRequest: guards.superUser,
      schema: { tags, querystring: announcementsListQuery, response: { 200: announcementsListReply } },
    },
    (request) => listAnnouncements(ctx(request), request.query),
  );
  app.get(
    '/announcements/active',
    {
      onRequest: guards.auth,
      schema: { tags, querystring: activeAnnouncementsQuery, response: { 200: announcementsListReply } },
    },
    (request) => listActiveAnnouncements(ctx(request), request.query),
  );
  app.get('/announcements/:id', one, (request) => findAnnouncement(ctx(request), request.params.id));
  app.post(
    '/announcements',
    {
      onRequest: guards.superUser,
      schema: { tags, body: announcementInput, response: { 201: announcementSchema } },
    },
    async (request, reply) => reply.status(201).send(await createAnnouncement(ctx(request), request.body)),
  );
  app.put(
    '/announcements/:id',
    {
      onRequest: guards.superUser,
      schema: { tags, params: idParam, body: announcementUpdate, response: { 200: announcementSchema } },
    },
    (request) => updateAnnouncement(ctx(request), request.params.id, request.body),
  );
  app.delete(
    '/announcements/:id',
    { onRequest: guards.superUser, schema: { tags, params: idParam, response: { 200: okReply } } },
    async (request) => {
      await deleteAnnouncement(ctx(request), deps.storage, request.params.id);
      return { message: 'Announcement deleted' };
    },
  );
  uploadRoutes(app, (uploads) => {
    uploads.post('/announcements/:id/media-upload', one, async (request) => {
      const form = await readMultipartForm(request, 'file', { maxFileBytes: ANNOUNCEMENT_MEDIA_MAX_BYTES });
      const [file] = form.files;
      if (!file) throw new AppError('ERR_VALIDATION', {}, 'file is required');
      return setAnnouncementMedia(ctx(request), deps.storage, request.params.id, file);
    });
  });
  app.delete('/announcements/:id/media-upload', one, (request) =>
    setAnnouncementMedia(ctx(request), deps.storage, request.params.id, null),
  );
  app.get(
    '/announcements/:id/media/:file',
    {
      onRequest: guards.auth,
      schema: { tags, params: z.object({ id: intId(), file: z.string().max(100) }) },
    },
    async (request, reply) => {
      const key = await announcementMediaKey(ctx(request), request.params.id, request.params.file);
      const file = await deps.storage.open(key);
      if (!file) throw new AppError('ERR_MEDIA_NOT_FOUND');
      return sendFile(reply, key, file, 'private, max-age=3600');
    },
  );
};
