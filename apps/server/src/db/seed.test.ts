import { count, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness.js';
import { type AuthDeps, login } from '../modules/auth/auth.service.js';
import { companies } from '../modules/companies/companies.schema.js';
import { plans } from '../modules/plans/plans.schema.js';
import { users } from '../modules/users/users.schema.js';
import { memoryRateLimiter } from '../platform/auth/rate-limiter.js';
import { createTokenService } from '../platform/auth/tokens.js';
import { createRealtime } from '../platform/realtime/realtime.js';
import type { Database } from './client.js';
import { ensurePlatform } from './seed.js';

/** The real login service on this database (no HTTP server needed). */
const authDeps = (database: Database): AuthDeps => ({
  db: database.db,
  tokens: createTokenService({
    accessSecret: 'seed-test-access-0123456789',
    refreshSecret: 'seed-test-refresh-0123456789',
    accessTtl: '15m',
    refreshTtlDays: 7,
  }),
  realtime: createRealtime({ corsOrigin: [], log: pino({ level: 'silent' }) }),
  limiter: memoryRateLimiter(60_000),
  limits: { perIp: 100, perEmail: 10 },
  refreshTtlDays: 7,
});

const totals = async (database: Database) => {
  const [[c], [p], [u]] = await Promise.all([
    database.db.select({ n: count() }).from(companies),
    database.db.select({ n: count() }).from(plans),
    database.db.select({ n: count() }).from(users),
  ]);
  return { companies: c.n, plans: p.n, users: u.n };
};

describe('ensurePlatform on an empty database, without a password', () => {
  let database: Database;
  let generatedPassword: string | undefined;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('starts from an empty database', async () => {
    expect(await totals(database)).toEqual({ companies: 0, plans: 0, users: 0 });
  });

  it('creates one company, one plan with every module on and one super user', async () => {
    const result = await ensurePlatform(database.db, {});
    generatedPassword = result.generatedPassword;
    expect(result.created).toBe(true);
    expect(result.email).toBe('admin@balcao.local');
    expect(await totals(database)).toEqual({ companies: 1, plans: 1, users: 1 });

    const [plan] = await database.db.select().from(plans);
    expect(plan).toMatchObject({
      useCampaigns: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
    });
    const [company] = await database.db.select().from(companies);
    expect(company).toMatchObject({ planId: plan.id, status: true, dueDate: null });
    expect(company.schedules).toHaveLength(7);
    const [user] = await database.db.select().from(users);
    expect(user).toMatchObject({ companyId: company.id, email: 'admin@balcao.local', profile: 'admin', super: true });
  });

  it('returned a generated password that logs in, stored only as a hash', async () => {
    const password = generatedPassword as string;
    expect(password.length).toBeGreaterThanOrEqual(16);
    const [row] = await database.db.select({ hash: users.passwordHash }).from(users);
    expect(row.hash).toMatch(/^\$argon2id\$/);
    expect(row.hash).not.toContain(password);
    const session = await login(authDeps(database), { email: 'admin@balcao.local', password, ip: '10.0.0.1' });
    expect(session.token).toMatch(/^ey/);
    expect(session.user).toMatchObject({ super: true, profile: 'admin', email: 'admin@balcao.local' });
    const wrong = login(authDeps(database), { email: 'admin@balcao.local', password: 'admin', ip: '10.0.0.1' });
    await expect(wrong).rejects.toMatchObject({ code: 'ERR_INVALID_CREDENTIALS' });
  });

  it('creates nothing on a second call', async () => {
    const before = await totals(database);
    const [hashBefore] = await database.db.select({ hash: users.passwordHash }).from(users);
    const again = await ensurePlatform(database.db, {});
    expect(again).toEqual({ created: false });
    expect(again).not.toHaveProperty('generatedPassword');
    expect(await totals(database)).toEqual(before);
    const [hashAfter] = await database.db.select({ hash: users.passwordHash }).from(users);
    expect(hashAfter).toEqual(hashBefore);
    // Not even with other credentials.
    expect(await ensurePlatform(database.db, { email: 'other@x.test', password: 'other-pass-1' })).toEqual({
      created: false,
    });
    expect(await database.db.select().from(users).where(eq(users.email, 'other@x.test'))).toEqual([]);
  });
});

describe('ensurePlatform with configured credentials', () => {
  it('uses them, lower-cases the e-mail and prints no password', async () => {
    const database = await openTestDatabase();
    try {
      const result = await ensurePlatform(database.db, { email: 'Root@Example.COM', password: 'root-pass-123' });
      expect(result).toEqual({ created: true, email: 'root@example.com', generatedPassword: undefined });
      const session = await login(authDeps(database), {
        email: 'ROOT@example.com',
        password: 'root-pass-123',
        ip: '10.0.0.2',
      });
      expect(session.user).toMatchObject({ email: 'root@example.com', super: true });
    } finally {
      await database.close();
    }
  });
});
