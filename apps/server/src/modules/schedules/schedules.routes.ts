import {
  idParam,
  okReply,
  scheduleInput,
  scheduleSchema,
  schedulesListQuery,
  schedulesListReply,
  scheduleUpdate,
} from '@balcao/shared';
import { AppError } from '../../platform/errors/app-error.js';
import { readMultipartForm, uploadRoutes } from '../../platform/http/multipart.js';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import {
  createSchedule,
  deleteSchedule,
  findSchedule,
  listSchedules,
  setScheduleMedia,
  updateSchedule,
} from './schedules.service.js';

/** Spec part 2 §7's schedule calls, the whole module behind the plan flag `useSchedules`. */
export const schedulesRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['schedules'];
  const gate = guards.plan('useSchedules');
  const ctx = serviceContext.bind(null, deps);
  const one = { onRequest: gate, schema: { tags, params: idParam, response: { 200: scheduleSchema } } };
  app.get(
    '/schedules',
    { onRequest: gate, schema: { tags, querystring: schedulesListQuery, response: { 200: schedulesListReply } } },
    (request) => listSchedules(ctx(request), request.query),
  );
  app.get('/schedules/:id', one, (request) => findSchedule(ctx(request), request.params.id));
  app.post(
    '/schedules',
    { onRequest: gate, schema: { tags, body: scheduleInput, response: { 201: scheduleSchema } } },
    async (request, reply) => reply.status(201).send(await createSchedule(ctx(request), deps, request.body)),
  );
  app.put(
    '/schedules/:id',
    { onRequest: gate, schema: { tags, params: idParam, body: scheduleUpdate, response: { 200: scheduleSchema } } },
    (request) => updateSchedule(ctx(request), deps, request.params.id, request.body),
  );
  app.delete(
    '/schedules/:id',
    { onRequest: gate, schema: { tags, params: idParam, response: { 200: okReply } } },
    async (request) => {
      await deleteSchedule(ctx(request), deps.storage, request.params.id);
      return { message: 'Schedule deleted' };
    },
  );
  uploadRoutes(app, (uploads) => {
    uploads.post('/schedules/:id/media-upload', one, async (request) => {
      const [file] = (await readMultipartForm(request, 'file')).files;
      if (!file) throw new AppError('ERR_VALIDATION', {}, 'file is required');
      return setScheduleMedia(ctx(request), deps.storage, request.params.id, file);
    });
  });
  app.delete('/schedules/:id/media-upload', one, (request) =>
    setScheduleMedia(ctx(request), deps.storage, request.params.id, null),
  );
};
