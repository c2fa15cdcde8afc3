import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, createTestServer, type TestServer } from '../../../test/harness.js';
import type { Caller } from './context.js';
import { requireAdmin, requirePlanFlag, requireSuper } from './guards.js';

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
  it('a plan flag switched off refuses the company; a flag on lets it through', async () => {
    const off = await createTenant(server, { plan: { useKanban: false } });
    const on = await createTenant(server);
    const guard = requirePlanFlag(server.deps.database.db, 'useKanban');
    expect(await run(guard, caller({ companyId: off.companyId, profile: 'admin' }))).toBe('ERR_PLAN_FEATURE_DISABLED');
    expect(await run(guard, caller({ companyId: on.companyId }))).toBe('allowed');
  });

  it('admin and super checks read the caller, not the request', async () => {
    expect(await run(requireAdmin, caller({ profile: 'user' }))).toBe('ERR_NO_PERMISSION');
    expect(await run(requireAdmin, caller({ profile: 'admin' }))).toBe('allowed');
    expect(await run(requireSuper, caller({ profile: 'admin' }))).toBe('ERR_NO_PERMISSION');
    expect(await run(requireSuper, caller({ isSuper: true }))).toBe('allowed');
  });
});
