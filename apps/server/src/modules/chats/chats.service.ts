import {
  CHAT_MESSAGES_PAGE,
  type Chat,
  type ChatMessage,
  type ChatRoomEvent,
  type ChatUserEvent,
  companyEvent,
} from '@balcao/shared';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { AppError } from '../../platform/errors/app-error.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import { rooms } from '../../platform/realtime/realtime.js';
import type { ServiceContext } from '../../platform/tenancy/context.js';
import { users } from '../users/users.schema.js';
import { chatMessages, chats, chatUsers } from './chats.schema.js';

type Row = typeof chats.$inferSelect;
type Input = { title: string; users: { id: number }[] };

/** The caller is a member of the chat (the subquery every read and write is filtered by). */
const isMember = (ctx: ServiceContext) =>
  sql`exists (select 1 from ${chatUsers} where ${chatUsers.chatId} = ${chats.id} and ${chatUsers.userId} = ${ctx.userId})`;

const ofCaller = (ctx: ServiceContext) => and(eq(chats.companyId, ctx.companyId), isMember(ctx));

async function membersOf(db: Db, chatIds: number[]) {
  if (!chatIds.length) return new Map<number, Chat['users']>();
  const rows = await db
    .select({ chatId: chatUsers.chatId, userId: chatUsers.userId, unreads: chatUsers.unreads, name: users.name })
    .from(chatUsers)
    .innerJoin(users, eq(users.id, chatUsers.userId))
    .where(inArray(chatUsers.chatId, chatIds))
    .orderBy(asc(users.name), asc(chatUsers.userId));
  const byChat = new Map<number, Chat['users']>();
  for (const r of rows) {
    const list = byChat.get(r.chatId) ?? [];
    list.push({ userId: r.userId, unreads: r.unreads, user: { id: r.userId, name: r.name } });
    byChat.set(r.chatId, list);
  }
  return byChat;
}

const toChat = (r: Row, members: Chat['users']): Chat => ({
  id: r.id,
  uuid: r.uuid,
  title: r.title,
  ownerId: r.ownerId,
  lastMessage: r.lastMessage,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
  users: members,
});

async function viewChats(db: Db, rows: Row[]): Promise<Chat[]> {
  const members = await membersOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toChat(r, members.get(r.id) ?? []));
}

const viewChat = async (db: Db, row: Row) => (await viewChats(db, [row]))[0];

/**
 * Tells each member (their user room, under their own event name) what changed; an update also goes
 * out under the spec's `company-{id}-chat`, to the same members.
 */
function tellMembers(ctx: ServiceContext, userIds: number[], payload: ChatUserEvent) {
  const members = [...new Set(userIds)];
  for (const userId of members) {
    ctx.realtime.toRooms([rooms.user(userId)], companyEvent.chatUser(ctx.companyId, userId), payload);
  }
  if (payload.action === 'update')
    ctx.realtime.toRooms(members.map(rooms.user), companyEvent.chat(ctx.companyId), payload);
}

/** The members' chats, by last activity, searched in the title. */
export async function listChats(ctx: ServiceContext, q: { searchParam: string; pageNumber: number }) {
  const { limit, offset, size } = pageWindow(q.pageNumber);
  const where = and(
    ofCaller(ctx),
    q.searchParam ? sql`lower(${chats.title}) like ${likePattern(q.searchParam)}` : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(chats).where(where).orderBy(desc(chats.updatedAt), desc(chats.id)).limit(limit).offset(offset),
    ctx.db.select({ total: count() }).from(chats).where(where),
  ]);
  const page = pageOf(rows, size);
  return { records: await viewChats(ctx.db, page.items), count: total, hasMore: page.hasMore };
}

/** A chat of the caller's company that the caller belongs to; anyone else learns nothing (404). */
async function memberRow(ctx: ServiceContext, ref: number | string): Promise<Row> {
  const [row] = await ctx.db
    .select()
    .from(chats)
    .where(and(typeof ref === 'number' ? eq(chats.id, ref) : eq(chats.uuid, ref), ofCaller(ctx)));
  if (!row) throw new AppError('ERR_NO_CHAT_FOUND');
  return row;
}

async function ownedRow(ctx: ServiceContext, id: number): Promise<Row> {
  const row = await memberRow(ctx, id);
  if (row.ownerId !== ctx.userId) throw new AppError('ERR_NO_PERMISSION');
  return row;
}

export async function findChat(ctx: ServiceContext, ref: number | string): Promise<Chat> {
  return viewChat(ctx.db, await memberRow(ctx, ref));
}

/** The owner plus the users named, all of the caller's company: another company's id is not found. */
async function membersFor(ctx: ServiceContext, named: { id: number }[]): Promise<number[]> {
  const ids = [...new Set([ctx.userId, ...named.map((u) => u.id)])];
  const found = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.companyId, ctx.companyId)));
  if (found.length !== ids.length) throw new AppError('ERR_NO_USER_FOUND');
  return ids;
}

export async function createChat(ctx: ServiceContext, input: Input): Promise<Chat> {
  const memberIds = await membersFor(ctx, input.users);
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(chats)
      .values({ title: input.title, ownerId: ctx.userId, companyId: ctx.companyId })
      .returning();
    await tx.insert(chatUsers).values(memberIds.map((userId) => ({ chatId: created.id, userId })));
    return created;
  });
  const record = await viewChat(ctx.db, row);
  tellMembers(ctx, memberIds, { action: 'create', record });
  return record;
}

/** The owner renames and changes members: rows of those who stay are kept, with their counters. */
export async function updateChat(ctx: ServiceContext, id: number, input: Partial<Input>): Promise<Chat> {
  await ownedRow(ctx, id);
  const wanted = input.users ? await membersFor(ctx, input.users) : undefined;
  const { row, before } = await ctx.db.transaction(async (tx) => {
    const current = (await tx.select({ userId: chatUsers.userId }).from(chatUsers).where(eq(chatUsers.chatId, id))).map(
      (r) => r.userId,
    );
    if (wanted) {
      const gone = current.filter((u) => !wanted.includes(u));
      const added = wanted.filter((u) => !current.includes(u));
      if (gone.length) await tx.delete(chatUsers).where(and(eq(chatUsers.chatId, id), inArray(chatUsers.userId, gone)));
      if (added.length) {
        await tx
          .insert(chatUsers)
          .values(added.map((userId) => ({ chatId: id, userId })))
          .onConflictDoNothing();
      }
    }
    const [updated] = await tx
      .update(chats)
      .set({ ...(input.title !== undefined && { title: input.title }), updatedAt: sql`${chats.updatedAt}` })
      .where(eq(chats.id, id))
      .returning();
    return { row: updated, before: current };
  });
  if (!row) throw new AppError('ERR_NO_CHAT_FOUND');
  const record = await viewChat(ctx.db, row);
  const now = record.users.map((u) => u.userId);
  tellMembers(
    ctx,
    now.filter((u) => before.includes(u)),
    { action: 'update', record },
  );
  tellMembers(
    ctx,
    now.filter((u) => !before.includes(u)),
    { action: 'create', record },
  );
  tellMembers(
    ctx,
    before.filter((u) => !now.includes(u)),
    { action: 'delete', id },
  );
  return record;
}

export async function deleteChat(ctx: ServiceContext, id: number): Promise<void> {
  await ownedRow(ctx, id);
  const memberIds = await ctx.db.transaction(async (tx) => {
    const members = await tx.select({ userId: chatUsers.userId }).from(chatUsers).where(eq(chatUsers.chatId, id));
    const [gone] = await tx.delete(chats).where(eq(chats.id, id)).returning({ id: chats.id });
    return gone ? members.map((m) => m.userId) : [];
  });
  tellMembers(ctx, memberIds, { action: 'delete', id });
}

async function viewMessages(db: Db, rows: (typeof chatMessages.$inferSelect)[]): Promise<ChatMessage[]> {
  const senderIds = [...new Set(rows.map((r) => r.senderId).filter((s): s is number => s !== null))];
  const names = senderIds.length
    ? new Map(
        (await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, senderIds))).map(
          (u) => [u.id, u.name],
        ),
      )
    : new Map<number, string>();
  return rows.map((r) => {
    const name = r.senderId !== null ? names.get(r.senderId) : undefined;
    return {
      id: r.id,
      chatId: r.chatId,
      senderId: r.senderId,
      sender: r.senderId !== null && name !== undefined ? { id: r.senderId, name } : null,
      message: r.message,
      createdAt: r.createdAt.toISOString(),
    };
  });
}

/** 20 messages a page from the newest; each page oldest first. */
export async function listMessages(ctx: ServiceContext, id: number, q: { pageNumber: number }) {
  const chat = await memberRow(ctx, id);
  const { limit, offset, size } = pageWindow(q.pageNumber, CHAT_MESSAGES_PAGE);
  const where = eq(chatMessages.chatId, chat.id);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(chatMessages).where(where).orderBy(desc(chatMessages.id)).limit(limit).offset(offset),
    ctx.db.select({ total: count() }).from(chatMessages).where(where),
  ]);
  const page = pageOf(rows, size);
  return { records: await viewMessages(ctx.db, page.items.reverse()), count: total, hasMore: page.hasMore };
}

/**
 * Stores a member's message and counts it unread for every other member (`unreads + 1` in SQL:
 * concurrent messages never lose an increment), in one statement: the chat row's lock, on which
 * concurrent senders of one chat queue, is held for that statement and its commit only.
 */
export async function sendMessage(ctx: ServiceContext, id: number, text: string): Promise<ChatMessage> {
  const [stored] = rowsOf<{ id: number }>(
    await ctx.db.execute(sql`
      with chat as (
        update ${chats} set last_message = ${text}, updated_at = now()
        where ${chats.id} = ${id} and ${ofCaller(ctx)} returning ${chats.id}
      ), unread as (
        update ${chatUsers} set unreads = ${chatUsers.unreads} + 1
        where ${chatUsers.chatId} in (select id from chat) and ${chatUsers.userId} <> ${ctx.userId}
      )
      insert into ${chatMessages} (chat_id, sender_id, message)
      select id, ${ctx.userId}, ${text} from chat returning id`),
  );
  const result = stored
    ? await Promise.all([
        ctx.db.select().from(chats).where(eq(chats.id, id)),
        ctx.db.select().from(chatMessages).where(eq(chatMessages.id, stored.id)),
      ]).then(([[chat], [message]]) => ({ chat, message }))
    : null;
  if (!result) throw new AppError('ERR_NO_CHAT_FOUND');
  const [record, [message]] = await Promise.all([
    viewChat(ctx.db, result.chat),
    viewMessages(ctx.db, [result.message]),
  ]);
  const memberIds = record.users.map((u) => u.userId);
  const payload: ChatRoomEvent = { action: 'new-message', message, record };
  for (const event of [companyEvent.chatRoom(ctx.companyId, id), companyEvent.chat(ctx.companyId)]) {
    ctx.realtime.toRooms(memberIds.map(rooms.user), event, payload);
  }
  tellMembers(ctx, memberIds, { action: 'update', record });
  return message;
}

/** Marks the chat read for the caller only, whatever the body names. */
export async function markRead(ctx: ServiceContext, id: number): Promise<Chat> {
  const chat = await memberRow(ctx, id);
  await ctx.db
    .update(chatUsers)
    .set({ unreads: 0 })
    .where(and(eq(chatUsers.chatId, chat.id), eq(chatUsers.userId, ctx.userId)));
  const record = await viewChat(ctx.db, chat);
  tellMembers(ctx, [ctx.userId], { action: 'update', record });
  return record;
}
