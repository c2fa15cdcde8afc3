import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { cloudRoutes } from './channels/cloud/cloud.routes.js';
import { sandboxRoutes } from './channels/sandbox/sandbox.routes.js';
import { announcementsRoutes } from './modules/announcements/announcements.routes.js';
import { apiMessagesRoutes } from './modules/api-messages/api-messages.routes.js';
import { assistantRoutes } from './modules/assistant/assistant.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { billingRoutes } from './modules/billing/billing.routes.js';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes.js';
import { chatsRoutes } from './modules/chats/chats.routes.js';
import { companiesRoutes } from './modules/companies/companies.routes.js';
import { contactListsRoutes } from './modules/contact-lists/contact-lists.routes.js';
import { contactsRoutes } from './modules/contacts/contacts.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { filesRoutes } from './modules/files/files.routes.js';
import { helpsRoutes } from './modules/helps/helps.routes.js';
import { integrationsRoutes } from './modules/integrations/integrations.routes.js';
import { messagesRoutes } from './modules/messages/messages.routes.js';
import { plansRoutes } from './modules/plans/plans.routes.js';
import { promptsRoutes } from './modules/prompts/prompts.routes.js';
import { queueOptionsRoutes } from './modules/queue-options/queue-options.routes.js';
import { queuesRoutes } from './modules/queues/queues.routes.js';
import { quickMessagesRoutes } from './modules/quick-messages/quick-messages.routes.js';
import { schedulesRoutes } from './modules/schedules/schedules.routes.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { tagsRoutes } from './modules/tags/tags.routes.js';
import { ticketNotesRoutes } from './modules/ticket-notes/ticket-notes.routes.js';
import { ticketTagsRoutes } from './modules/ticket-tags/ticket-tags.routes.js';
import { ticketRoomsOfCaller } from './modules/tickets/tickets.access.js';
import { ticketsRoutes } from './modules/tickets/tickets.routes.js';
import { registerPresence } from './modules/users/users.presence.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { whatsappRoutes } from './modules/whatsapp/whatsapp.routes.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandler } from './platform/errors/error-handler.js';
import { lazyCompilers } from './platform/http/lazy-compilers.js';
import { refuseNul } from './platform/http/refuse-nul.js';
import { OneLineRequestLog } from './platform/http/request-log.js';
import { apiDocsCsp, registerSecurityHeaders } from './platform/http/security-headers.js';
import type { App, AppDeps, Guards, ModuleRoutes } from './platform/http/types.js';
import { mediaRoutes } from './platform/storage/media.routes.js';
import { createCallers } from './platform/tenancy/callers.js';
import { authenticate, requireAdmin, requirePlanFlag, requireSuper } from './platform/tenancy/guards.js';

const modules: ModuleRoutes[] = [
  authRoutes,
  usersRoutes,
  companiesRoutes,
  plansRoutes,
  settingsRoutes,
  queuesRoutes,
  queueOptionsRoutes,
  whatsappRoutes,
  contactsRoutes,
  contactListsRoutes,
  campaignsRoutes,
  ticketsRoutes,
  messagesRoutes,
  apiMessagesRoutes,
  dashboardRoutes,
  tagsRoutes,
  ticketNotesRoutes,
  ticketTagsRoutes,
  quickMessagesRoutes,
  promptsRoutes,
  integrationsRoutes,
  billingRoutes,
  assistantRoutes,
  schedulesRoutes,
  chatsRoutes,
  filesRoutes,
  announcementsRoutes,
  helpsRoutes,
  mediaRoutes,
  sandboxRoutes,
  cloudRoutes,
];

/** The HTTP + Socket.IO server with every module. Tests call it with their own deps. */
export async function buildApp(deps: AppDeps, opts: { logger?: FastifyBaseLogger } = {}): Promise<App> {
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    genReqId: () => crypto.randomUUID(),
    logController: new OneLineRequestLog(),
    // `GET /users/` is the spec's `GET /users`.
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
    clientErrorHandler,
    schemaController: { compilersFactory: lazyCompilers },
  }).withTypeProvider() as unknown as App;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('caller', null);
  registerErrorHandler(app);
  app.addHook('preValidation', refuseNul);

  await app.register(cors, {
    origin: [deps.config.FRONTEND_URL],
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  });
  registerSecurityHeaders(app);
  await app.register(cookie);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Balcão API', version: '1.10.0' },
      // The external message API (/api/messages) authenticates with a connection's token.
      components: { securitySchemes: { connectionToken: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
    // Lists schemas registered with an id (recursive ones such as QueueOption) under components.
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api-docs', ...apiDocsCsp });

  const db = deps.database.db;
  const callers = await createCallers(deps.database, app.log);
  app.addHook('onClose', () => callers.close());
  const auth = authenticate(callers, deps.tokens);
  const guards: Guards = {
    auth,
    admin: [auth, requireAdmin],
    superUser: [auth, requireSuper],
    plan: (flag) => [auth, requirePlanFlag(flag)],
    planAdmin: (flag) => [auth, requirePlanFlag(flag), requireAdmin],
  };

  app.get('/health', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await db.execute(sql`select 1`);
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'error' });
    }
  });
  for (const register of modules) register(app, deps, guards);

  deps.realtime.attach(app.server, async (token) => {
    const claims = await deps.tokens.verifyAccess(token);
    return claims ? callers.of(claims.sessionId, claims.userId) : null;
  });
  deps.realtime.addRoomResolver((caller) => ticketRoomsOfCaller(db, caller));
  registerPresence(deps.realtime, db);
  app.addHook('onClose', () => deps.realtime.close());
  return app;
}
