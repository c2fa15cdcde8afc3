import type { PlanFlag } from '@balcao/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { statement } from '../../db/named-statement.js';
import { companies } from '../../modules/companies/companies.schema.js';
import { plans } from '../../modules/plans/plans.schema.js';
import { sessions, userQueues, users } from '../../modules/users/users.schema.js';
import type { TokenService } from '../auth/tokens.js';
import { AppError } from '../errors/app-error.js';
import { companyAdmits } from './company-access.js';
import { type Caller, isAdmin } from './context.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export type PreHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  return header.slice(7).trim() || undefined;
}

const sessionCaller = statement('caller_of_session', ['sessionId'], (db, p) =>
  db
    .select({
      userId: users.id,
      companyId: users.companyId,
      profile: users.profile,
      isSuper: users.super,
      allTicket: users.allTicket,
      queueIds: sql<
        number[]
      >`array(select ${userQueues.queueId} from ${userQueues} where ${userQueues.userId} = ${users.id} order by 1)`,
      revokedAt: sessions.revokedAt,
      expiresAt: sessions.expiresAt,
      status: companies.status,
      dueDate: companies.dueDate,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(sessions.id, p.sessionId))
    .limit(1),
);

/**
 * Loads the caller of a session, or null if the session is revoked, expired or its user gone, or
 * if its company may no longer log in (inactive or past its due date). One statement, on every
 * request: it also brings the user's queues and `allTicket`, which the ticket reads need.
 */
export async function callerOfSession(db: Db, sessionId: string, userId: number): Promise<Caller | null> {
  const [row] = await sessionCaller(db, { sessionId });
  if (!row || row.userId !== userId || row.revokedAt || row.expiresAt < new Date()) return null;
  if (!companyAdmits(row, row.isSuper)) return null;
  return {
    userId: row.userId,
    companyId: row.companyId,
    profile: row.profile,
    isSuper: row.isSuper,
    sessionId,
    queueIds: row.queueIds,
    allTicket: row.allTicket === 'enable',
  };
}

/**
 * No Authorization header answers 401 (nothing to refresh: the client logs out); an invalid or
 * expired access token answers 403 (the client refreshes once, spec §4); a revoked session 401.
 */
export function authenticate(db: Db, tokens: TokenService): PreHandler {
  return async (request) => {
    if (!request.headers.authorization) throw new AppError('ERR_SESSION_EXPIRED');
    const token = bearer(request);
    const claims = token ? await tokens.verifyAccess(token) : null;
    if (!claims) throw new AppError('ERR_INVALID_TOKEN', {}, 'Invalid or expired token');
    const caller = await callerOfSession(db, claims.sessionId, claims.userId);
    if (!caller) throw new AppError('ERR_SESSION_EXPIRED');
    request.caller = caller;
    request.log = request.log.child({ companyId: caller.companyId, userId: caller.userId });
  };
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new AppError('ERR_SESSION_EXPIRED');
  return request.caller;
}

export const requireAdmin: PreHandler = async (request) => {
  if (!isAdmin(callerOf(request))) throw new AppError('ERR_NO_PERMISSION');
};

export const requireSuper: PreHandler = async (request) => {
  if (!callerOf(request).isSuper) throw new AppError('ERR_NO_PERMISSION');
};

/** A plan flag gate; a company without a plan row, or a flag left null, counts as enabled. */
export function requirePlanFlag(db: Db, flag: PlanFlag): PreHandler {
  return async (request) => {
    const caller = callerOf(request);
    const [row] = await db
      .select({ enabled: plans[flag] })
      .from(companies)
      .innerJoin(plans, eq(plans.id, companies.planId))
      .where(eq(companies.id, caller.companyId))
      .limit(1);
    if (row && row.enabled === false) throw new AppError('ERR_PLAN_FEATURE_DISABLED', { flag });
  };
}
