import { loginBody, sessionReply, sessionUserSchema } from '@balcao/shared';
import type { FastifyReply } from 'fastify';
import type { AppDeps, ModuleRoutes } from '../../platform/http/types.js';
import { callerOf } from '../../platform/tenancy/guards.js';
import { type AuthDeps, type IssuedSession, login, logout, refresh, sessionUser } from './auth.service.js';

export const REFRESH_COOKIE = 'jrt';

function authDeps(deps: AppDeps): AuthDeps {
  return {
    db: deps.database.db,
    tokens: deps.tokens,
    realtime: deps.realtime,
    limiter: deps.limiter,
    limits: { perIp: deps.config.LOGIN_LIMIT_IP, perEmail: deps.config.LOGIN_LIMIT_EMAIL },
    refreshTtlDays: deps.config.REFRESH_TOKEN_TTL_DAYS,
  };
}

export const authRoutes: ModuleRoutes = (app, deps, guards) => {
  const tags = ['auth'];
  const auth = authDeps(deps);
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: deps.config.FRONTEND_URL.startsWith('https://'),
    path: '/auth',
    maxAge: deps.config.REFRESH_TOKEN_TTL_DAYS * 86_400,
  };
  const send = (reply: FastifyReply, s: IssuedSession) =>
    reply.setCookie(REFRESH_COOKIE, s.refreshToken, cookieOptions).send({ token: s.token, user: s.user });

  app.post(
    '/auth/login',
    { schema: { tags, body: loginBody, response: { 200: sessionReply } } },
    async (request, reply) => send(reply, await login(auth, { ...request.body, ip: request.ip })),
  );
  app.post('/auth/refresh_token', { schema: { tags, response: { 200: sessionReply } } }, async (request, reply) => {
    const session = await refresh(auth, request.cookies[REFRESH_COOKIE]).catch((err) => {
      reply.clearCookie(REFRESH_COOKIE, { path: '/auth' });
      throw err;
    });
    return send(reply, session);
  });
  app.delete('/auth/logout', { onRequest: guards.auth, schema: { tags } }, async (request, reply) => {
    await logout(auth, callerOf(request).sessionId);
    return reply.clearCookie(REFRESH_COOKIE, { path: '/auth' }).send({ message: 'Logged out' });
  });
  app.get('/auth/me', { onRequest: guards.auth, schema: { tags, response: { 200: sessionUserSchema } } }, (request) => {
    const { companyId, userId } = callerOf(request);
    return sessionUser(deps.database.db, companyId, userId);
  });
};
