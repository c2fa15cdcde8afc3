import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import { companies } from '../modules/companies/companies.schema.js';
import { defaultCompanySchedules } from '../modules/companies/companies.service.js';
import { plans } from '../modules/plans/plans.schema.js';
import { users } from '../modules/users/users.schema.js';
import { hashPassword } from '../platform/auth/passwords.js';
import type { Db } from './client.js';

export interface SeedResult {
  created: boolean;
  email?: string;
  /** Set only when the password was generated: the caller prints it once. */
  generatedPassword?: string;
}

/**
 * First start on an empty database: the platform company, a plan with every module on and a
 * super user. Nothing happens once any company exists. No password is ever hard-coded.
 */
export async function ensurePlatform(db: Db, admin: { email?: string; password?: string }): Promise<SeedResult> {
  const [{ total }] = await db.select({ total: count() }).from(companies);
  if (total > 0) return { created: false };
  const email = (admin.email ?? 'admin@balcao.local').toLowerCase();
  const generatedPassword = admin.password ? undefined : randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(admin.password ?? (generatedPassword as string));
  await db.transaction(async (tx) => {
    const [plan] = await tx
      .insert(plans)
      .values({ name: 'Plataforma', users: 9999, connections: 9999, queues: 9999, value: 0 })
      .returning({ id: plans.id });
    const [company] = await tx
      .insert(companies)
      .values({ name: 'Balcão', email, planId: plan.id, schedules: defaultCompanySchedules })
      .returning({ id: companies.id });
    await tx
      .insert(users)
      .values({ companyId: company.id, name: 'Admin', email, passwordHash, profile: 'admin', super: true });
  });
  return { created: true, email, generatedPassword };
}
