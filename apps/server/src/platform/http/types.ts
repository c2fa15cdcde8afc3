import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ChannelManager } from '../../channels/manager.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import type { TokenService } from '../auth/tokens.js';
import type { Jobs } from '../jobs/jobs.js';
import type { Realtime } from '../realtime/realtime.js';
import type { Storage } from '../storage/storage.js';
import type { ServiceContext } from '../tenancy/context.js';
import { callerOf, type PreHandler } from '../tenancy/guards.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Everything the server is built from; `buildApp` receives it, tests build their own. */
export interface AppDeps {
  config: Config;
  database: Database;
  tokens: TokenService;
  realtime: Realtime;
  jobs: Jobs;
  limiter: RateLimiter;
  storage: Storage;
  channels: ChannelManager;
}

/** Guards every module uses, bound to the app's database and tokens. */
export interface Guards {
  auth: PreHandler;
  admin: PreHandler[];
  superUser: PreHandler[];
  plan(flag: import('@balcao/shared').PlanFlag): PreHandler[];
  /** The plan flag, then the admin profile: a module's admin-only writes. */
  planAdmin(flag: import('@balcao/shared').PlanFlag): PreHandler[];
}

export function serviceContext(deps: AppDeps, request: FastifyRequest): ServiceContext {
  return { ...callerOf(request), db: deps.database.db, realtime: deps.realtime, jobs: deps.jobs };
}

export type ModuleRoutes = (app: App, deps: AppDeps, guards: Guards) => void;
