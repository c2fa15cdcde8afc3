import { PLAN_FLAGS, type PlanFlag } from '@balcao/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { statement } from '../../db/named-statement.js';
import { companies } from '../../modules/companies/companies.schema.js';
import { plans } from '../../modules/plans/plans.schema.js';
import { sessions, userQueues, users } from '../../modules/users/users.schema.js';
import type { TokenService } from '../auth/tokens.js';
import { AppError } from '../errors/app-error.js';
import type { Callers } from './callers.js';
import { companyAdmits } from './company-access.js';
import { type Caller, isAdmin, type PlanFlags } from './context.js';

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

const planFlags = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, plans[flag]])) as {
  [F in PlanFlag]: (typeof plans)[F];
};

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
      planId: companies.planId,
      plan: planFlags,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(eq(sessions.id, p.sessionId))
    .limit(1),
);

/** What the session check reads: the session, its user and queues, the company and its plan. */
export type SessionRow = Awaited<ReturnType<typeof sessionCaller>>[number];

/** The session's row, user, queues, company and plan in one statement; undefined if the session is gone. */
export const sessionRow = async (db: Db, sessionId: string): Promise<SessionRow | undefined> =>
  (await sessionCaller(db, { sessionId }))[0];

/**
 * The caller a session row stands for, or null if the session is revoked, expired, not the token's
 * user's, or if its company may no longer log in (inactive or past its due date). Checked on every
 * use, as time alone can end a session or a company's access.
 */
export function callerFrom(row: SessionRow, sessionId: string, userId: number): Caller | null {
  if (row.userId !== userId || row.revokedAt || row.expiresAt < new Date()) return null;
  if (!companyAdmits(row, row.isSuper)) return null;
  return {
    userId: row.userId,
    companyId: row.companyId,
    profile: row.profile,
    isSuper: row.isSuper,
    sessionId,
    queueIds: row.queueIds,
    allTicket: row.allTicket === 'enable',
    plan: row.plan as PlanFlags | null,
  };
}

/** The caller of a session read now from the database (token refresh); requests go through `Callers`. */
export async function callerOfSession(db: Db, sessionId: string, userId: number): Promise<Caller | null> {
  const row = await sessionRow(db, sessionId);
  return row ? callerFrom(row, sessionId, userId) : null;
}

/**
 * No Authorization header answers 401 (nothing to refresh: the client logs out); an invalid or
 * expired access token answers 403 (the client refreshes once, spec §4); a revoked session 401.
 */
export function authenticate(callers: Callers, tokens: TokenService): PreHandler {
  return async (request) => {
    if (!request.headers.authorization) throw new AppError('ERR_SESSION_EXPIRED');
    const token = bearer(request);
    const claims = token ? await tokens.verifyAccess(token) : null;
    if (!claims) throw new AppError('ERR_INVALID_TOKEN', {}, 'Invalid or expired token');
    const caller = await callers.of(claims.sessionId, claims.userId);
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

/** A plan flag gate, on the plan read with the session; a company without a plan has every feature. */
export function requirePlanFlag(flag: PlanFlag): PreHandler {
  return async (request) => {
    if (callerOf(request).plan?.[flag] === false) throw new AppError('ERR_PLAN_FEATURE_DISABLED', { flag });
  };
}
