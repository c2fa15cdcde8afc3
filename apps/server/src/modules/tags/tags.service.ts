import { companyEvent, type Tag } from '@balcao/shared';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { QueryShape } from '../../db/query-shape.js';
import { AppError } from '../../platform/errors/app-error.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import { isAdmin, type ServiceContext } from '../../platform/tenancy/context.js';
import { assertOwned } from '../../platform/tenancy/owned.js';
import { companyKeys, ticketAccessOf, visibleTickets } from '../tickets/tickets.access.js';
import { tickets } from '../tickets/tickets.schema.js';
import { tags, ticketTags } from './tags.schema.js';

type TagInput = { name: string; color: string; kanban: number };

const tagColumns = { id: tags.id, name: tags.name, color: tags.color, kanban: tags.kanban };
const ticketsCount = sql<number>`(select count(*)::int from ${ticketTags} where ${ticketTags.tagId} = ${tags.id})`;

type TagsListQuery = { searchParam: string; pageNumber: number; includeTickets?: boolean; includeTicketTag?: boolean };

/** The open and pending tickets the caller may see that carry one of the tags. */
async function visibleTicketsOfTags(ctx: ServiceContext, tagIds: number[]) {
  if (!tagIds.length) return [];
  const access = await ticketAccessOf(ctx.db, ctx);
  return ctx.db
    .select({ tagId: ticketTags.tagId, id: tickets.id, uuid: tickets.uuid, status: tickets.status })
    .from(ticketTags)
    .innerJoin(tickets, eq(tickets.id, ticketTags.ticketId))
    .where(
      companyKeys(
        tickets,
        ctx.companyId,
        [visibleTickets(access, QueryShape.inline())],
        inArray(ticketTags.tagId, tagIds),
        inArray(tickets.status, ['open', 'pending']),
      ),
    )
    .orderBy(desc(tickets.updatedAt), desc(tickets.id));
}

export async function listTags(ctx: ServiceContext, q: TagsListQuery) {
  const { limit, offset, size } = pageWindow(q.pageNumber);
  const where = and(
    eq(tags.companyId, ctx.companyId),
    q.searchParam ? sql`lower(${tags.name}) like ${likePattern(q.searchParam)}` : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({ ...tagColumns, ticketsCount })
      .from(tags)
      .where(where)
      .orderBy(asc(tags.name))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ total: count() }).from(tags).where(where),
  ]);
  const page = pageOf(rows, size);
  if (!q.includeTickets && !q.includeTicketTag) return { tags: page.items, count: total, hasMore: page.hasMore };
  const carried = await visibleTicketsOfTags(
    ctx,
    page.items.map((tag) => tag.id),
  );
  const withTickets = page.items.map((tag) => {
    const mine = carried.filter((row) => row.tagId === tag.id);
    return {
      ...tag,
      ...(q.includeTickets ? { tickets: mine.map(({ id, uuid, status }) => ({ id, uuid, status })) } : {}),
      ...(q.includeTicketTag ? { ticketTags: mine.map(({ id }) => ({ ticketId: id, tagId: tag.id })) } : {}),
    };
  });
  return { tags: withTickets, count: total, hasMore: page.hasMore };
}

export function allTags(db: Db, companyId: number): Promise<Tag[]> {
  return db.select(tagColumns).from(tags).where(eq(tags.companyId, companyId)).orderBy(asc(tags.name));
}

/** The kanban lanes (spec part 2 §7 `GET /tags/kanban`): the company's tags flagged kanban. */
export function kanbanTags(db: Db, companyId: number): Promise<Tag[]> {
  return db
    .select(tagColumns)
    .from(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.kanban, 1)))
    .orderBy(asc(tags.name));
}

export async function findTag(db: Db, companyId: number, id: number): Promise<Tag> {
  const [row] = await db
    .select({ ...tagColumns, ticketsCount })
    .from(tags)
    .where(and(eq(tags.id, id), eq(tags.companyId, companyId)));
  if (!row) throw new AppError('ERR_NO_TAG_FOUND');
  return row;
}

async function assertNameFree(db: Db, companyId: number, name: string, exceptId?: number) {
  const [other] = await db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.companyId, companyId), sql`lower(${tags.name}) = ${name.toLowerCase()}`));
  if (other && other.id !== exceptId) throw new AppError('ERR_TAG_NAME_ALREADY_EXISTS');
}

const emitTag = (ctx: ServiceContext, payload: object) =>
  ctx.realtime.toCompany(ctx.companyId, companyEvent.tag(ctx.companyId), payload);

/** Kanban lanes are admin business (DOMAIN §13): a plain user may not switch the flag either way. */
function assertKanbanAllowed(ctx: ServiceContext, kanban: number | undefined, current = 0) {
  if (kanban !== undefined && kanban !== current && !isAdmin(ctx)) throw new AppError('ERR_NO_PERMISSION');
}

export async function createTag(ctx: ServiceContext, input: TagInput): Promise<Tag> {
  assertKanbanAllowed(ctx, input.kanban);
  await assertNameFree(ctx.db, ctx.companyId, input.name);
  const [row] = await ctx.db
    .insert(tags)
    .values({ ...input, companyId: ctx.companyId })
    .returning({ id: tags.id });
  const tag = await findTag(ctx.db, ctx.companyId, row.id);
  emitTag(ctx, { action: 'create', tag });
  return tag;
}

export async function updateTag(ctx: ServiceContext, id: number, input: Partial<TagInput>): Promise<Tag> {
  assertKanbanAllowed(ctx, input.kanban, (await findTag(ctx.db, ctx.companyId, id)).kanban);
  if (input.name) await assertNameFree(ctx.db, ctx.companyId, input.name, id);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(tags)
      .set(input)
      .where(and(eq(tags.id, id), eq(tags.companyId, ctx.companyId)));
    // Turned into a lane or out of one: its tickets' lanes follow.
    if (input.kanban !== undefined) await refreshLanes(tx, carrying(id));
  });
  const tag = await findTag(ctx.db, ctx.companyId, id);
  emitTag(ctx, { action: 'update', tag });
  return tag;
}

export async function deleteTag(ctx: ServiceContext, id: number): Promise<void> {
  await findTag(ctx.db, ctx.companyId, id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(tags).where(and(eq(tags.id, id), eq(tags.companyId, ctx.companyId)));
    await refreshLanes(tx, eq(tickets.laneTagId, id));
  });
  emitTag(ctx, { action: 'delete', tagId: id });
}

/** The tickets that carry the tag. */
const carrying = (tagId: number) =>
  inArray(tickets.id, sql`(select ${ticketTags.ticketId} from ${ticketTags} where ${ticketTags.tagId} = ${tagId})`);

/**
 * Writes `tickets.lane_tag_id` of the tickets matching `where` from their tags: their kanban tag
 * (the lowest id if an old ticket carries several), null for none. Every write of a ticket's tags or
 * of a tag's kanban flag calls it in its transaction, so the board's lanes never disagree with the tags.
 */
export async function refreshLanes(tx: Db, where: SQL): Promise<void> {
  await tx
    .update(tickets)
    .set({
      laneTagId: sql`(select min(tt.tag_id) from ${ticketTags} tt join ${tags} g on g.id = tt.tag_id and g.kanban = 1
        where tt.ticket_id = ${tickets.id})`,
      // A move on the board is not activity: the ticket keeps its place in the lists.
      updatedAt: sql`${tickets.updatedAt}`,
    })
    .where(where);
}

/** The id names a tag of the company (a campaign's tag list). */
export const assertTagOf = (db: Db, companyId: number, id: number | null | undefined) =>
  assertOwned(db, tags, companyId, [id], 'ERR_NO_TAG_FOUND');
