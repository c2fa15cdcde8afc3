import { companyEvent, type Queue, type QueueInput } from '@balcao/shared';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { companies } from '../companies/companies.schema.js';
import { defaultCompanySchedules } from '../companies/companies.service.js';
import { plans } from '../plans/plans.schema.js';
import { queues } from './queues.schema.js';

const queueColumns = {
  id: queues.id,
  name: queues.name,
  color: queues.color,
  greetingMessage: queues.greetingMessage,
  outOfHoursMessage: queues.outOfHoursMessage,
  orderQueue: queues.orderQueue,
  schedules: queues.schedules,
  integrationId: queues.integrationId,
  promptId: queues.promptId,
};

/** The company's queues in menu order. */
export function listQueues(db: Db, companyId: number): Promise<Queue[]> {
  return db
    .select(queueColumns)
    .from(queues)
    .where(eq(queues.companyId, companyId))
    .orderBy(asc(sql`coalesce(${queues.orderQueue}, 2147483647)`), asc(queues.id));
}

export async function findQueue(db: Db, companyId: number, id: number): Promise<Queue> {
  const [row] = await db
    .select(queueColumns)
    .from(queues)
    .where(and(eq(queues.id, id), eq(queues.companyId, companyId)))
    .limit(1);
  if (!row) throw new AppError('ERR_NO_QUEUE_FOUND');
  return row;
}

async function assertUnique(db: Db, companyId: number, input: Partial<QueueInput>, exceptId?: number) {
  const clash = async (where: ReturnType<typeof eq>) => {
    const [other] = await db
      .select({ id: queues.id })
      .from(queues)
      .where(and(eq(queues.companyId, companyId), where))
      .limit(1);
    return other && other.id !== exceptId;
  };
  if (input.color && (await clash(sql`lower(${queues.color}) = ${input.color.toLowerCase()}`))) {
    throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  }
  if (input.name && (await clash(sql`lower(${queues.name}) = ${input.name.toLowerCase()}`))) {
    throw new AppError('ERR_QUEUE_NAME_ALREADY_EXISTS');
  }
}

function emitQueue(ctx: ServiceContext, action: 'update' | 'delete', payload: object) {
  ctx.realtime.toCompany(ctx.companyId, companyEvent.queue(ctx.companyId), { action, ...payload });
}

export async function createQueue(ctx: ServiceContext, input: QueueInput): Promise<Queue> {
  await assertUnique(ctx.db, ctx.companyId, input);
  const id = await ctx.db.transaction(async (tx) => {
    const [limit] = await tx
      .select({ max: plans.queues })
      .from(companies)
      .innerJoin(plans, eq(plans.id, companies.planId))
      .where(eq(companies.id, ctx.companyId))
      .for('update', { of: companies });
    const [{ total }] = await tx.select({ total: count() }).from(queues).where(eq(queues.companyId, ctx.companyId));
    if (total >= limit.max) throw new AppError('ERR_PLAN_LIMIT_QUEUES', { limit: limit.max });
    const [row] = await tx
      .insert(queues)
      .values({ ...input, companyId: ctx.companyId, schedules: input.schedules ?? defaultCompanySchedules })
      .returning({ id: queues.id });
    return row.id;
  });
  const queue = await findQueue(ctx.db, ctx.companyId, id);
  emitQueue(ctx, 'update', { queue });
  return queue;
}

export async function updateQueue(ctx: ServiceContext, id: number, input: Partial<QueueInput>): Promise<Queue> {
  await findQueue(ctx.db, ctx.companyId, id);
  await assertUnique(ctx.db, ctx.companyId, input, id);
  await ctx.db
    .update(queues)
    .set(input)
    .where(and(eq(queues.id, id), eq(queues.companyId, ctx.companyId)));
  const queue = await findQueue(ctx.db, ctx.companyId, id);
  emitQueue(ctx, 'update', { queue });
  return queue;
}

export async function deleteQueue(ctx: ServiceContext, id: number): Promise<void> {
  await findQueue(ctx.db, ctx.companyId, id);
  await ctx.db.delete(queues).where(and(eq(queues.id, id), eq(queues.companyId, ctx.companyId)));
  emitQueue(ctx, 'delete', { queueId: id });
}
