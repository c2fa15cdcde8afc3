import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type TestServer } from '../../../test/harness.js';
import type { Caller } from './context.js';
import { callerOfSession, requireAdmin, requirePlanFlag, requireSuper } from './guards.js';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const requestOf = (caller: Caller) => ({ caller, log: server.app.log }) as unknown as FastifyRequest;
const run = (guard: (r: FastifyRequest, p: FastifyReply) => Promise<void>, caller: Caller) =>
  guard(requestOf(caller), {} as FastifyReply).then(
    () => 'allowed',
    (err: { code: string }) => err.code,
  );
const caller = (over: Partial<Caller>): Caller => ({
  companyId: 1,
  userId: 1,
  profile: 'user',
  isSuper: false,
  sessionId: 's',
  ...over,
});

describe('guards', () => {
  it("a plan flag switched off refuses the company's callers; a flag on lets them through", async () => {
    const off = await createTenant(server, { plan: { useKanban: false } });
    const on = await createTenant(server);
    const callerOf = async (session: { token: string }) => {
      const claims = await server.deps.tokens.verifyAccess(session.token);
      return (await callerOfSession(server.deps.database.db, claims!.sessionId, claims!.userId))!;
    };
    const guard = requirePlanFlag('useKanban');
    expect(await run(guard, await callerOf(off.admin))).toBe('ERR_PLAN_FEATURE_DISABLED');
    expect(await run(guard, await callerOf(on.user))).toBe('allowed');
    expect(await run(requirePlanFlag('useCampaigns'), await callerOf(off.admin))).toBe('allowed');
  });

  it('admin and super checks read the caller, not the request', async () => {
    expect(await run(requireAdmin, caller({ profile: 'user' }))).toBe('ERR_NO_PERMISSION');
    expect(await run(requireAdmin, caller({ profile: 'admin' }))).toBe('allowed');
    expect(await run(requireSuper, caller({ profile: 'admin' }))).toBe('ERR_NO_PERMISSION');
    expect(await run(requireSuper, caller({ isSuper: true }))).toBe('allowed');
  });
});
