import { type CrudAction, companyEvent, type Queue, type QueueInput } from '@balcao/shared';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { assertOwned } from '../../platform/tenancy/owned.js';
import { defaultCompanySchedules } from '../companies/companies.service.js';
import { assertIntegrationOfCompany } from '../integrations/integrations.service.js';
import { assertBelowPlanLimit } from '../plans/plans.limits.js';
import { assertPromptOfCompany } from '../prompts/prompts.service.js';
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

function emitQueue(ctx: ServiceContext, action: CrudAction, payload: object) {
  ctx.realtime.toCompany(ctx.companyId, companyEvent.queue(ctx.companyId), { action, ...payload });
}

/** The prompt and integration a queue names, when they change: the company's own or not found. */
async function assertQueueReferences(ctx: ServiceContext, input: Partial<QueueInput>, current?: Queue) {
  if (input.promptId !== current?.promptId) await assertPromptOfCompany(ctx.db, ctx.companyId, input.promptId);
  if (input.integrationId !== current?.integrationId) {
    await assertIntegrationOfCompany(ctx.db, ctx.companyId, input.integrationId);
  }
}

export async function createQueue(ctx: ServiceContext, input: QueueInput): Promise<Queue> {
  await assertQueueReferences(ctx, input);
  await assertUnique(ctx.db, ctx.companyId, input);
  const id = await ctx.db.transaction(async (tx) => {
    await assertBelowPlanLimit(tx as unknown as Db, ctx.companyId, 'queues', async () => {
      const [{ total }] = await tx.select({ total: count() }).from(queues).where(eq(queues.companyId, ctx.companyId));
      return total;
    });
    const [row] = await tx
      .insert(queues)
      .values({ ...input, companyId: ctx.companyId, schedules: input.schedules ?? defaultCompanySchedules })
      .returning({ id: queues.id });
    return row.id;
  });
  const queue = await findQueue(ctx.db, ctx.companyId, id);
  emitQueue(ctx, 'create', { queue });
  return queue;
}

export async function updateQueue(ctx: ServiceContext, id: number, input: Partial<QueueInput>): Promise<Queue> {
  await assertQueueReferences(ctx, input, await findQueue(ctx.db, ctx.companyId, id));
  await assertUnique(ctx.db, ctx.companyId, input, id);
  await ctx.db
    .update(queues)
    .set(input)
    .where(and(eq(queues.id, id), eq(queues.companyId, ctx.companyId)));
  const queue = await findQueue(ctx.db, ctx.companyId, id);
  emitQueue(ctx, 'update', { queue });
  return queue;
}

/** A deleted prompt or integration answers on no queue any more: the queues that named it name none. */
async function detachFromQueues(ctx: ServiceContext, column: 'promptId' | 'integrationId', id: number) {
  const changed = await ctx.db
    .update(queues)
    .set({ [column]: null })
    .where(and(eq(queues.companyId, ctx.companyId), eq(queues[column], id)))
    .returning({ id: queues.id });
  for (const row of changed) emitQueue(ctx, 'update', { queue: await findQueue(ctx.db, ctx.companyId, row.id) });
}

export const detachPromptFromQueues = (ctx: ServiceContext, promptId: number) =>
  detachFromQueues(ctx, 'promptId', promptId);
export const detachIntegrationFromQueues = (ctx: ServiceContext, integrationId: number) =>
  detachFromQueues(ctx, 'integrationId', integrationId);

export async function deleteQueue(ctx: ServiceContext, id: number): Promise<void> {
  await findQueue(ctx.db, ctx.companyId, id);
  await ctx.db.delete(queues).where(and(eq(queues.id, id), eq(queues.companyId, ctx.companyId)));
  emitQueue(ctx, 'delete', { queueId: id });
}

export interface QueueRef {
  id: number;
  name: string;
  color: string;
}

/** A link table between an owner (user, connection) and queues. */
export interface QueueLink {
  table: PgTable;
  owner: PgColumn;
  queue: PgColumn;
  /** The row that links `ownerId` to `queueId`. */
  row(ownerId: number, queueId: number): Record<string, number>;
}

/** The queues of many owners in one query, in menu order. */
export async function queueRefsOf(db: Db, link: QueueLink, ownerIds: number[]): Promise<Map<number, QueueRef[]>> {
  const byOwner = new Map<number, QueueRef[]>(ownerIds.map((id) => [id, []]));
  if (ownerIds.length === 0) return byOwner;
  const rows = await db
    .select({ owner: sql<number>`${link.owner}`, id: queues.id, name: queues.name, color: queues.color })
    .from(link.table)
    .innerJoin(queues, eq(queues.id, link.queue))
    .where(inArray(link.owner, ownerIds))
    .orderBy(asc(queues.orderQueue), asc(queues.id));
  for (const { owner, ...ref } of rows) byOwner.get(owner)?.push(ref);
  return byOwner;
}

/** Replaces an owner's queues. */
export async function setQueueLinks(db: Db, link: QueueLink, ownerId: number, queueIds: number[]) {
  await db.delete(link.table).where(eq(link.owner, ownerId));
  const unique = [...new Set(queueIds)];
  if (unique.length) {
    await db.insert(link.table).values(unique.map((queueId) => link.row(ownerId, queueId)) as never);
  }
}

/** Every id names a queue of the company; another company's queue is simply not found. */
export const assertQueuesOfCompany = (db: Db, companyId: number, queueIds: readonly (number | null | undefined)[]) =>
  assertOwned(db, queues, companyId, queueIds, 'ERR_NO_QUEUE_FOUND');
