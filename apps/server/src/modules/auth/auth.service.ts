import { randomUUID } from 'node:crypto';
import { companyEvent, formatDueDate, type SessionUser } from '@balcao/shared';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { decoyHash, verifyPassword } from '../../platform/auth/passwords.js';
import type { RateLimiter } from '../../platform/auth/rate-limiter.js';
import { endSessions, sessionsWhere } from '../../platform/auth/sessions.js';
import type { TokenService } from '../../platform/auth/tokens.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Realtime } from '../../platform/realtime/realtime.js';
import { forgetCallers } from '../../platform/tenancy/callers.js';
import { isOverdue } from '../../platform/tenancy/company-access.js';
import { isAdmin } from '../../platform/tenancy/context.js';
import { callerOfSession } from '../../platform/tenancy/guards.js';
import { companies } from '../companies/companies.schema.js';
import { getPlan } from '../plans/plans.service.js';
import { listSettings } from '../settings/settings.service.js';
import { sessions, users } from '../users/users.schema.js';
import { findUser } from '../users/users.service.js';

export interface AuthDeps {
  db: Db;
  tokens: TokenService;
  realtime: Realtime;
  limiter: RateLimiter;
  limits: { perIp: number; perEmail: number };
  refreshTtlDays: number;
}

export interface IssuedSession {
  token: string;
  refreshToken: string;
  user: SessionUser;
}

/** The user with the company's plan and settings, as login, refresh and /auth/me return it. */
export async function sessionUser(db: Db, companyId: number, userId: number): Promise<SessionUser> {
  const user = await findUser(db, companyId, userId);
  const [company] = await db
    .select({
      id: companies.id,
      name: companies.name,
      dueDate: companies.dueDate,
      trialExpiration: companies.trialExpiration,
      email: companies.email,
      planId: companies.planId,
    })
    .from(companies)
    .where(eq(companies.id, companyId))
    .limit(1);
  const [settingsList, plan] = await Promise.all([
    listSettings(db, companyId, { admin: isAdmin({ profile: user.profile, isSuper: user.super }) }),
    getPlan(db, company.planId),
  ]);
  const { planId: _planId, ...companyFields } = company;
  return { ...user, company: { ...companyFields, settings: settingsList, plan } };
}

async function assertCompanyMayLogIn(db: Db, companyId: number, isSuper: boolean) {
  if (isSuper) return;
  const [company] = await db
    .select({ status: companies.status, dueDate: companies.dueDate })
    .from(companies)
    .where(eq(companies.id, companyId))
    .limit(1);
  if (!company?.status) throw new AppError('ERR_NO_PERMISSION', {}, 'Company is inactive');
  if (company.dueDate && isOverdue(company.dueDate)) {
    const date = formatDueDate(company.dueDate);
    throw new AppError(
      'ERR_SUBSCRIPTION_EXPIRED',
      { dueDate: company.dueDate },
      `Opss! Sua assinatura venceu ${date}. Entre em contato com o Suporte para mais informações!`,
    );
  }
}

/**
 * Checks the credentials, refuses expired companies, opens a new session and revokes the user's
 * older ones (their browsers are told through `company-{id}-auth`, then their sockets are closed).
 */
export async function login(
  deps: AuthDeps,
  input: { email: string; password: string; ip: string },
): Promise<IssuedSession> {
  const email = input.email.trim().toLowerCase();
  const ipKey = `login:ip:${input.ip}`;
  const emailKey = `login:email:${email}`;
  const [ipHits, emailFailures] = await Promise.all([deps.limiter.hit(ipKey), deps.limiter.count(emailKey)]);
  if (ipHits > deps.limits.perIp || emailFailures >= deps.limits.perEmail) {
    throw new AppError('ERR_TOO_MANY_REQUESTS', {}, 'Too many login attempts, try again later');
  }

  const [row] = await deps.db
    .select({ id: users.id, companyId: users.companyId, hash: users.passwordHash, isSuper: users.super })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  const ok = await verifyPassword(row?.hash ?? (await decoyHash), input.password);
  if (!row || !ok) {
    await deps.limiter.hit(emailKey);
    throw new AppError('ERR_INVALID_CREDENTIALS');
  }
  await deps.limiter.reset(emailKey);
  await assertCompanyMayLogIn(deps.db, row.companyId, row.isSuper);

  const sessionId = randomUUID();
  const expiresAt = new Date(Date.now() + deps.refreshTtlDays * 86_400_000);
  const revoked = await deps.db.transaction(async (tx) => {
    const old = await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, row.id), isNull(sessions.revokedAt), ne(sessions.id, sessionId)))
      .returning({ id: sessions.id });
    await tx.insert(sessions).values({ id: sessionId, userId: row.id, companyId: row.companyId, expiresAt });
    return old;
  });
  forgetCallers(deps.db, { sessions: revoked.map((s) => s.id) });
  for (const s of revoked) {
    deps.realtime.toSession(s.id, companyEvent.auth(row.companyId), {
      action: 'logout',
      user: { id: row.id },
      sessionId,
    });
  }
  // After the auth event: a socket's packets go out in order, so it is delivered before the close.
  deps.realtime.disconnectSessions(revoked.map((s) => s.id));
  return issue(deps, { userId: row.id, companyId: row.companyId, sessionId });
}

async function issue(
  deps: AuthDeps,
  claims: { userId: number; companyId: number; sessionId: string },
): Promise<IssuedSession> {
  const [token, refreshToken, user] = await Promise.all([
    deps.tokens.signAccess(claims),
    deps.tokens.signRefresh(claims),
    sessionUser(deps.db, claims.companyId, claims.userId),
  ]);
  return { token, refreshToken, user };
}

/**
 * A new access token for a live session; 401 when the session was revoked or has expired, or its
 * company may no longer log in (`callerOfSession`).
 */
export async function refresh(deps: AuthDeps, refreshToken: string | undefined): Promise<IssuedSession> {
  const claims = refreshToken ? await deps.tokens.verifyRefresh(refreshToken) : null;
  const caller = claims ? await callerOfSession(deps.db, claims.sessionId, claims.userId) : null;
  if (!caller) throw new AppError('ERR_SESSION_EXPIRED');
  return issue(deps, caller);
}

export async function logout(deps: Pick<AuthDeps, 'db' | 'realtime'>, sessionId: string): Promise<void> {
  await endSessions(deps, sessionsWhere.id(sessionId));
}
