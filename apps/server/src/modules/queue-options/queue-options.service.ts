import type { QueueOption } from '@balcao/shared';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { findQueue } from '../queues/queues.service.js';
import { queueOptions } from './queue-options.schema.js';

const columns = {
  id: queueOptions.id,
  queueId: queueOptions.queueId,
  parentId: queueOptions.parentId,
  title: queueOptions.title,
  message: queueOptions.message,
  option: queueOptions.option,
};
/** An option without its children, as stored. */
export type QueueOptionRow = Omit<QueueOption, 'children'>;

const siblingsOf = (queueId: number, parentId: number | null) =>
  and(
    eq(queueOptions.queueId, queueId),
    parentId === null ? isNull(queueOptions.parentId) : eq(queueOptions.parentId, parentId),
  );

/** The options under `parentId` (null: the first level) of a queue of the caller's company. */
export async function listOptions(
  ctx: ServiceContext,
  queueId: number,
  parentId: number | null,
): Promise<QueueOption[]> {
  await findQueue(ctx.db, ctx.companyId, queueId);
  return ctx.db
    .select(columns)
    .from(queueOptions)
    .where(siblingsOf(queueId, parentId))
    .orderBy(asc(queueOptions.option));
}

/** Every option of a queue as a tree, for the chatbot. */
export async function optionTree(db: Db, queueId: number): Promise<QueueOption[]> {
  const rows = await db
    .select(columns)
    .from(queueOptions)
    .where(eq(queueOptions.queueId, queueId))
    .orderBy(asc(queueOptions.option));
  return optionTrees([queueId], rows).get(queueId) ?? [];
}

/** The options trees of several queues from their rows in option order, by queue id (empty for a queue without options). */
export function optionTrees(queueIds: readonly number[], rows: readonly QueueOptionRow[]): Map<number, QueueOption[]> {
  const byParent = new Map<string, QueueOptionRow[]>();
  const keyOf = (queueId: number, parentId: number | null) => `${queueId}:${parentId}`;
  for (const o of rows) {
    const key = keyOf(o.queueId, o.parentId);
    byParent.set(key, [...(byParent.get(key) ?? []), o]);
  }
  const build = (queueId: number, parentId: number | null): QueueOption[] =>
    (byParent.get(keyOf(queueId, parentId)) ?? []).map((o) => ({ ...o, children: build(queueId, o.id) }));
  return new Map(queueIds.map((id) => [id, build(id, null)]));
}

async function findOption(ctx: ServiceContext, id: number): Promise<QueueOption> {
  const [row] = await ctx.db.select(columns).from(queueOptions).where(eq(queueOptions.id, id)).limit(1);
  if (!row) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND');
  await findQueue(ctx.db, ctx.companyId, row.queueId).catch(() => {
    throw new AppError('ERR_NO_QUEUE_OPTION_FOUND');
  });
  return row;
}

export async function createOption(
  ctx: ServiceContext,
  input: { queueId: number; parentId: number | null; title: string; message: string },
): Promise<QueueOption> {
  await findQueue(ctx.db, ctx.companyId, input.queueId);
  if (input.parentId !== null) {
    const parent = await findOption(ctx, input.parentId);
    if (parent.queueId !== input.queueId) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND');
  }
  return ctx.db.transaction(async (tx) => {
    const [{ next }] = await tx
      .select({ next: sql<number>`coalesce(max(${queueOptions.option}), 0) + 1` })
      .from(queueOptions)
      .where(siblingsOf(input.queueId, input.parentId));
    const [row] = await tx
      .insert(queueOptions)
      .values({ ...input, option: Number(next) })
      .returning(columns);
    return row;
  });
}

export async function updateOption(ctx: ServiceContext, id: number, input: { title?: string; message?: string }) {
  await findOption(ctx, id);
  const [row] = await ctx.db.update(queueOptions).set(input).where(eq(queueOptions.id, id)).returning(columns);
  return row;
}

/** Deleting an option removes its subtree and renumbers the siblings after it (spec part 2 §4). */
export async function deleteOption(ctx: ServiceContext, id: number): Promise<void> {
  const option = await findOption(ctx, id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(queueOptions).where(eq(queueOptions.id, id));
    await tx
      .update(queueOptions)
      .set({ option: sql`${queueOptions.option} - 1` })
      .where(and(siblingsOf(option.queueId, option.parentId), gt(queueOptions.option, option.option)));
  });
}
