import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import { companies } from '../companies/companies.schema.js';
import { plans } from './plans.schema.js';

/** The plan's counted resources (DOMAIN §11: enforced by the server, not only hidden in the menu). */
export type PlanLimit = 'users' | 'connections' | 'queues';

const limitError = {
  users: 'ERR_PLAN_LIMIT_USERS',
  connections: 'ERR_PLAN_LIMIT_CONNECTIONS',
  queues: 'ERR_PLAN_LIMIT_QUEUES',
} as const;

/**
 * Call inside the transaction that creates the record: locks the company row, so that concurrent
 * creations of a company queue up behind one another, then refuses once `count` (the module counting
 * its own rows) has reached the plan's limit. Resolves with that count.
 */
export async function assertBelowPlanLimit(
  tx: Db,
  companyId: number,
  kind: PlanLimit,
  count: () => Promise<number>,
): Promise<number> {
  const [company] = await tx
    .select({ limit: plans[kind] })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId))
    .for('update', { of: companies });
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
  const total = await count();
  if (total >= company.limit) throw new AppError(limitError[kind], { limit: company.limit });
  return total;
}
