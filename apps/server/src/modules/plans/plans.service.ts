import type { Plan, PlanInput, PlanUpdate } from '@balcao/shared';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import { forgetCallers } from '../../platform/tenancy/callers.js';
import type { Caller } from '../../platform/tenancy/context.js';
import { companies } from '../companies/companies.schema.js';
import { plans } from './plans.schema.js';

const planColumns = {
  id: plans.id,
  name: plans.name,
  users: plans.users,
  connections: plans.connections,
  queues: plans.queues,
  value: plans.value,
  useCampaigns: plans.useCampaigns,
  useSchedules: plans.useSchedules,
  useInternalChat: plans.useInternalChat,
  useExternalApi: plans.useExternalApi,
  useKanban: plans.useKanban,
  useOpenAi: plans.useOpenAi,
  useIntegrations: plans.useIntegrations,
};

export function listPlans(db: Db): Promise<Plan[]> {
  return db.select(planColumns).from(plans).orderBy(asc(plans.id));
}

export async function getPlan(db: Db, id: number): Promise<Plan> {
  const [plan] = await db.select(planColumns).from(plans).where(eq(plans.id, id)).limit(1);
  if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
  return plan;
}

async function assertNameFree(db: Db, name: string, exceptId?: number) {
  const [other] = await db.select({ id: plans.id }).from(plans).where(eq(plans.name, name)).limit(1);
  if (other && other.id !== exceptId) throw new AppError('ERR_DUPLICATED_NAME');
}

export async function createPlan(db: Db, input: PlanInput): Promise<Plan> {
  await assertNameFree(db, input.name);
  const [plan] = await db.insert(plans).values(input).returning(planColumns);
  return plan;
}

export async function updatePlan(db: Db, id: number, input: PlanUpdate): Promise<Plan> {
  await getPlan(db, id);
  if (input.name) await assertNameFree(db, input.name, id);
  // updatedAt keeps the SET clause non-empty when the body is `{}`.
  const [plan] = await db
    .update(plans)
    .set({ ...input, updatedAt: new Date() })
    .where(eq(plans.id, id))
    .returning(planColumns);
  forgetCallers(db, { plan: id });
  return plan;
}

export async function deletePlan(db: Db, id: number): Promise<void> {
  await getPlan(db, id);
  const [used] = await db.select({ id: companies.id }).from(companies).where(eq(companies.planId, id)).limit(1);
  if (used) throw new AppError('ERR_PLAN_IN_USE');
  await db.delete(plans).where(eq(plans.id, id));
}

/** The plan of a company: members read their own, the super user any. */
export async function planOfCompany(db: Db, caller: Caller, companyId: number): Promise<Plan> {
  if (!caller.isSuper && caller.companyId !== companyId) throw new AppError('ERR_NO_PERMISSION');
  const [row] = await db
    .select(planColumns)
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId))
    .limit(1);
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  return row;
}
