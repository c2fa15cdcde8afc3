import { Readable } from 'node:stream';
import {
  campaignInput,
  campaignSchema,
  campaignSettingsInput,
  campaignSettingsReply,
  campaignsQuery,
  campaignsReply,
  campaignUpdate,
  idParam,
  okReply,
  shippingQuery,
  shippingReply,
} from '@balcao/shared';
import { AppError } from '../../platform/errors/app-error.js';
import { readMultipartForm, uploadRoutes } from '../../platform/http/multipart.js';
import { type ModuleRoutes, serviceContext } from '../../platform/http/types.js';
import { callerOf } from '../../platform/tenancy/guards.js';
import { listCampaignSettings, saveCampaignSettings } from './campaign-settings.service.js';
import { cancelCampaign, restartCampaign, startIfDue } from './campaigns.lifecycle.js';
import { exportShippingsCsv, listShippings } from './campaigns.report.js';
import {
  campaignRow,
  createCampaign,
  deleteCampaign,
  findCampaign,
  listCampaigns,
  setCampaignMedia,
  updateCampaign,
} from './campaigns.service.js';

/**
 * Spec part 2 §7's campaign calls, all behind the plan flag useCampaigns; deleting a campaign and
 * changing the company's campaign settings are the admins'.
 */
export const campaignsRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['campaigns'];
  const gate = guards.plan('useCampaigns');
  const admin = guards.planAdmin('useCampaigns');
  const ctx = serviceContext.bind(null, deps);
  const lifecycle = { ...deps, log: app.log as unknown as import('pino').Logger };
  const one = { onRequest: gate, schema: { tags, params: idParam, response: { 200: campaignSchema } } };

  app.get(
    '/campaigns/',
    { onRequest: gate, schema: { tags, querystring: campaignsQuery, response: { 200: campaignsReply } } },
    (request) => listCampaigns(ctx(request), request.query),
  );
  app.get('/campaigns/:id', one, (request) => findCampaign(ctx(request), request.params.id));
  app.post(
    '/campaigns',
    { onRequest: gate, schema: { tags, body: campaignInput, response: { 201: campaignSchema } } },
    async (request, reply) => {
      const created = await createCampaign(ctx(request), request.body);
      return reply.status(201).send(await startIfDue(ctx(request), lifecycle, created));
    },
  );
  app.put(
    '/campaigns/:id',
    { onRequest: gate, schema: { tags, params: idParam, body: campaignUpdate, response: { 200: campaignSchema } } },
    async (request) =>
      startIfDue(ctx(request), lifecycle, await updateCampaign(ctx(request), request.params.id, request.body)),
  );
  app.delete(
    '/campaigns/:id',
    { onRequest: admin, schema: { tags, params: idParam, response: { 200: okReply } } },
    async (request) => {
      await deleteCampaign(ctx(request), deps.storage, request.params.id);
      return { message: 'Campaign deleted' };
    },
  );
  uploadRoutes(app, (uploads) => {
    uploads.post('/campaigns/:id/media-upload', one, async (request) => {
      await campaignRow(deps.database.db, callerOf(request).companyId, request.params.id);
      const [file] = (await readMultipartForm(request, 'file')).files;
      if (!file) throw new AppError('ERR_VALIDATION', {}, 'file is required');
      return setCampaignMedia(ctx(request), deps.storage, request.params.id, file);
    });
  });
  app.delete('/campaigns/:id/media-upload', one, (request) =>
    setCampaignMedia(ctx(request), deps.storage, request.params.id, null),
  );
  app.post('/campaigns/:id/cancel', one, (request) => cancelCampaign(ctx(request), request.params.id));
  app.post('/campaigns/:id/restart', one, (request) => restartCampaign(ctx(request), lifecycle, request.params.id));

  // The per-recipient report (DOMAIN §8): a page filtered by state, and the whole of it as CSV.
  app.get(
    '/campaigns/:id/shipping',
    {
      onRequest: gate,
      schema: { tags, params: idParam, querystring: shippingQuery, response: { 200: shippingReply } },
    },
    (request) => listShippings(ctx(request), request.params.id, request.query),
  );
  app.get(
    '/campaigns/:id/shipping/export',
    { onRequest: gate, schema: { tags, params: idParam } },
    async (request, reply) => {
      await campaignRow(deps.database.db, callerOf(request).companyId, request.params.id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="campanha-${request.params.id}.csv"`)
        .send(Readable.from(exportShippingsCsv(deps.database.db, request.params.id)));
    },
  );

  app.get(
    '/campaign-settings',
    { onRequest: gate, schema: { tags, response: { 200: campaignSettingsReply } } },
    (request) => listCampaignSettings(deps.database.db, callerOf(request).companyId),
  );
  app.post(
    '/campaign-settings',
    { onRequest: admin, schema: { tags, body: campaignSettingsInput, response: { 200: campaignSettingsReply } } },
    (request) => saveCampaignSettings(ctx(request), request.body.settings),
  );
};
