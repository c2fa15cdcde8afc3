import { companyEvent, type User, type UserInput, type UserUpdate } from '@balcao/shared';
import { and, asc, count, eq, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { RowOf } from '../../db/columns.js';
import { hashPassword } from '../../platform/auth/passwords.js';
import { endSessions, sessionsWhere } from '../../platform/auth/sessions.js';
import { AppError } from '../../platform/errors/app-error.js';
import { likePattern, pageOf, pageWindow } from '../../platform/pagination.js';
import { type Realtime, rooms } from '../../platform/realtime/realtime.js';
import { keyOfMediaUrl, type Storage } from '../../platform/storage/storage.js';
import { forgetCallers } from '../../platform/tenancy/callers.js';
import { type Caller, isAdmin, type ServiceContext } from '../../platform/tenancy/context.js';
import { assertBelowPlanLimit } from '../plans/plans.limits.js';
import { assertQueuesOfCompany, type QueueLink, queueRefsOf, setQueueLinks } from '../queues/queues.service.js';
import { ticketRoomsOfCaller } from '../tickets/tickets.access.js';
import { assertWhatsappOfCompany } from '../whatsapp/whatsapp.service.js';
import { userQueues, users } from './users.schema.js';

const userColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  profile: users.profile,
  super: users.super,
  companyId: users.companyId,
  whatsappId: users.whatsappId,
  limitAttendance: users.limitAttendance,
  allTicket: users.allTicket,
  online: users.online,
  avatar: users.avatar,
  createdAt: users.createdAt,
};
type UserRow = RowOf<typeof userColumns>;

const userQueueLink: QueueLink = {
  table: userQueues,
  owner: userQueues.userId,
  queue: userQueues.queueId,
  row: (userId, queueId) => ({ userId, queueId }),
};

/** Attaches queues to many users with one query. */
async function withQueues(db: Db, rows: UserRow[]): Promise<User[]> {
  const byUser = await queueRefsOf(
    db,
    userQueueLink,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), queues: byUser.get(r.id) ?? [] }));
}

export async function findUser(db: Db, companyId: number, id: number): Promise<User> {
  const rows = await db
    .select(userColumns)
    .from(users)
    .where(and(eq(users.id, id), eq(users.companyId, companyId)))
    .limit(1);
  if (rows.length === 0) throw new AppError('ERR_NO_USER_FOUND');
  const [user] = await withQueues(db, rows);
  return user;
}

export async function listUsers(ctx: ServiceContext, q: { searchParam: string; pageNumber: number }) {
  const { limit, offset, size } = pageWindow(q.pageNumber);
  const term = likePattern(q.searchParam);
  const where = and(
    eq(users.companyId, ctx.companyId),
    q.searchParam ? or(sql`lower(${users.name}) like ${term}`, sql`${users.email} like ${term}`) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select(userColumns)
      .from(users)
      .where(where)
      .orderBy(sql`lower(${users.name})`, asc(users.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ total: count() }).from(users).where(where),
  ]);
  const page = pageOf(rows, size);
  return { users: await withQueues(ctx.db, page.items), count: total, hasMore: page.hasMore };
}

/** A user's queue ids, for the transfer dialog, which offers only the users of the chosen queue. */
const queueIdsOfUser = sql<number[]>`coalesce(
  (select array_agg(${userQueues.queueId} order by ${userQueues.queueId}) from ${userQueues}
   where ${userQueues.userId} = ${users.id}),
  '{}')`;

/** Short list for pickers (transfer, filters): every user of the caller's company, with their queues' ids. */
export function listUserRefs(db: Db, companyId: number) {
  return db
    .select({
      id: users.id,
      name: users.name,
      profile: users.profile,
      online: users.online,
      queueIds: queueIdsOfUser,
    })
    .from(users)
    .where(eq(users.companyId, companyId))
    .orderBy(sql`lower(${users.name})`);
}

export async function getUser(ctx: ServiceContext, id: number): Promise<User> {
  if (!isAdmin(ctx) && id !== ctx.userId) throw new AppError('ERR_NO_PERMISSION');
  return findUser(ctx.db, ctx.companyId, id);
}

async function assertEmailFree(db: Db, email: string, exceptId?: number) {
  const [other] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), exceptId ? ne(users.id, exceptId) : undefined))
    .limit(1);
  if (other) throw new AppError('ERR_DUPLICATED_EMAIL');
}

/**
 * Creates a user in the caller's company (the super user may name another one), inside one
 * transaction that locks the company row so that concurrent creations cannot pass the plan limit.
 */
export async function createUser(ctx: ServiceContext, input: UserInput): Promise<User> {
  const companyId = ctx.isSuper && input.companyId ? input.companyId : ctx.companyId;
  await assertEmailFree(ctx.db, input.email);
  await assertQueuesOfCompany(ctx.db, companyId, input.queueIds);
  await assertWhatsappOfCompany(ctx.db, companyId, input.whatsappId);
  const passwordHash = await hashPassword(input.password);
  const id = await ctx.db.transaction(async (tx) => {
    await assertBelowPlanLimit(tx as unknown as Db, companyId, 'users', async () => {
      const [{ total }] = await tx.select({ total: count() }).from(users).where(eq(users.companyId, companyId));
      return total;
    });
    const [row] = await tx
      .insert(users)
      .values({
        companyId,
        name: input.name,
        email: input.email,
        passwordHash,
        profile: input.profile,
        limitAttendance: input.limitAttendance,
        whatsappId: input.whatsappId,
        allTicket: input.allTicket,
      })
      .returning({ id: users.id });
    await setQueueLinks(tx as unknown as Db, userQueueLink, row.id, input.queueIds);
    return row.id;
  });
  const user = await findUser(ctx.db, companyId, id);
  emitUser(ctx.realtime, companyId, id, { action: 'create', user });
  return user;
}

const adminOnlyFields = ['profile', 'queueIds', 'limitAttendance', 'allTicket', 'whatsappId'] as const;

export async function updateUser(ctx: ServiceContext, id: number, input: UserUpdate): Promise<User> {
  const admin = isAdmin(ctx);
  if (!admin && id !== ctx.userId) throw new AppError('ERR_NO_PERMISSION');
  if (!admin && adminOnlyFields.some((f) => input[f] !== undefined)) throw new AppError('ERR_NO_PERMISSION');
  const current = await findUser(ctx.db, ctx.companyId, id);
  if (current.super && !ctx.isSuper) throw new AppError('ERR_NO_PERMISSION');
  if (input.email) await assertEmailFree(ctx.db, input.email, id);
  if (input.queueIds) await assertQueuesOfCompany(ctx.db, ctx.companyId, input.queueIds);
  if (input.whatsappId !== current.whatsappId) await assertWhatsappOfCompany(ctx.db, ctx.companyId, input.whatsappId);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const roomsBefore = await ticketRoomsOf(ctx.db, current);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        name: input.name,
        email: input.email,
        passwordHash,
        profile: input.profile,
        limitAttendance: input.limitAttendance,
        whatsappId: input.whatsappId,
        allTicket: input.allTicket,
        // Always one column to set: a body with only queueIds (or an empty password) is a valid update.
        updatedAt: new Date(),
      })
      .where(and(eq(users.id, id), eq(users.companyId, ctx.companyId)));
    if (input.queueIds) await setQueueLinks(tx as unknown as Db, userQueueLink, id, input.queueIds);
  });
  forgetCallers(ctx.db, { user: id });
  const user = await findUser(ctx.db, ctx.companyId, id);
  // Open sockets follow the new queues and profile at once: no reconnect needed to see or stop seeing tickets.
  const roomsAfter = await ticketRoomsOf(ctx.db, user);
  ctx.realtime.syncUserRooms(
    id,
    roomsAfter.filter((r) => !roomsBefore.includes(r)),
    roomsBefore.filter((r) => !roomsAfter.includes(r)),
  );
  emitUser(ctx.realtime, ctx.companyId, id, { action: 'update', user });
  // A new password ends the user's other sessions; set by an admin, every one of them.
  if (passwordHash) await endSessions(ctx, sessionsWhere.user(id, id === ctx.userId ? ctx.sessionId : undefined));
  return user;
}

const ticketRoomsOf = (db: Db, u: User) =>
  ticketRoomsOfCaller(db, {
    companyId: u.companyId,
    userId: u.id,
    profile: u.profile,
    isSuper: u.super,
    sessionId: '',
  });

export async function deleteUser(ctx: ServiceContext, id: number, storage: Pick<Storage, 'remove'>): Promise<void> {
  if (id === ctx.userId) throw new AppError('ERR_CANNOT_DELETE_SELF');
  const target = await findUser(ctx.db, ctx.companyId, id);
  if (target.super && !ctx.isSuper) throw new AppError('ERR_NO_PERMISSION');
  await ctx.db.delete(users).where(and(eq(users.id, id), eq(users.companyId, ctx.companyId)));
  forgetCallers(ctx.db, { user: id });
  const avatar = keyOfMediaUrl(target.avatar);
  if (avatar) await storage.remove(avatar);
  emitUser(ctx.realtime, ctx.companyId, id, { action: 'delete', userId: id });
  // Its sessions went with the row (cascade); its open sockets go now.
  ctx.realtime.disconnectUser(id);
}

/** A user's full record is read by the company's admins and by the user (GET /users/:id): so are its events. */
export function emitUser(realtime: Realtime, companyId: number, userId: number, payload: object) {
  realtime.toRooms([rooms.admins(companyId), rooms.user(userId)], companyEvent.user(companyId), payload);
}

/** Presence from sockets: the online flag and the time of the last heartbeat. */
export async function setPresence(db: Db, caller: Pick<Caller, 'companyId' | 'userId'>, online: boolean) {
  const [row] = await db
    .update(users)
    .set({ online, lastSeenAt: new Date() })
    .where(and(eq(users.id, caller.userId), eq(users.companyId, caller.companyId)))
    .returning({ id: users.id, online: users.online });
  return row;
}
