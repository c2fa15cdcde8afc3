import type { QueueOption } from '@balcao/shared';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { statement } from '../../db/named-statement.js';
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
  const all: QueueOption[] = await db
    .select(columns)
    .from(queueOptions)
    .where(eq(queueOptions.queueId, queueId))
    .orderBy(asc(queueOptions.option));
  const byParent = new Map<number | null, QueueOption[]>();
  for (const o of all) byParent.set(o.parentId, [...(byParent.get(o.parentId) ?? []), o]);
  const build = (parentId: number | null): QueueOption[] =>
    (byParent.get(parentId) ?? []).map((o) => ({ ...o, children: build(o.id) }));
  return build(null);
}

const optionsOf = statement('queue_options_of', ['queueIds'], (db, p) =>
  db
    .select(columns)
    .from(queueOptions)
    .where(sql`${queueOptions.queueId} = any(${p.queueIds})`)
    .orderBy(asc(queueOptions.queueId), asc(queueOptions.option)),
);

/** The options trees of several queues in one query, by queue id (an empty tree for a queue without options). */
export async function optionTrees(db: Db, queueIds: number[]): Promise<Map<number, QueueOption[]>> {
  const trees = new Map<number, QueueOption[]>(queueIds.map((id) => [id, []]));
  if (queueIds.length === 0) return trees;
  const all: QueueOption[] = await optionsOf(db, { queueIds });
  const byParent = new Map<string, QueueOption[]>();
  const keyOf = (queueId: number, parentId: number | null) => `${queueId}:${parentId}`;
  for (const o of all) {
    const key = keyOf(o.queueId, o.parentId);
    byParent.set(key, [...(byParent.get(key) ?? []), o]);
  }
  const build = (queueId: number, parentId: number | null): QueueOption[] =>
    (byParent.get(keyOf(queueId, parentId)) ?? []).map((o) => ({ ...o, children: build(queueId, o.id) }));
  for (const id of queueIds) trees.set(id, build(id, null));
  return trees;
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
