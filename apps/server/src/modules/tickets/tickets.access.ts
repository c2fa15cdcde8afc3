import { and, eq, isNull, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { anyOfUnseen } from '../../db/named-statement.js';
import type { QueryShape } from '../../db/query-shape.js';
import { rooms } from '../../platform/realtime/realtime.js';
import { type Caller, isAdmin } from '../../platform/tenancy/context.js';
import { userQueues, users } from '../users/users.schema.js';
import type { ticketCounts, tickets } from './tickets.schema.js';

/** What a caller may see of the company's tickets (spec §6, DOMAIN §11). */
export interface TicketAccess {
  admin: boolean;
  userId: number;
  queueIds: number[];
  /** `allTicket` enabled: tickets without a queue are visible too. */
  seesNoQueue: boolean;
}

/** The caller's queues and `allTicket`: from the session check when it brought them, else read now. */
async function queueMembershipOf(db: Db, caller: Caller): Promise<{ queueIds: number[]; allTicket: boolean }> {
  if (caller.queueIds && caller.allTicket !== undefined)
    return { queueIds: caller.queueIds, allTicket: caller.allTicket };
  const [[row], queues] = await Promise.all([
    db.select({ allTicket: users.allTicket }).from(users).where(eq(users.id, caller.userId)).limit(1),
    db.select({ id: userQueues.queueId }).from(userQueues).where(eq(userQueues.userId, caller.userId)),
  ]);
  return { queueIds: queues.map((q) => q.id), allTicket: row?.allTicket === 'enable' };
}

export async function ticketAccessOf(db: Db, caller: Caller): Promise<TicketAccess> {
  const { queueIds, allTicket } = await queueMembershipOf(db, caller);
  const admin = isAdmin(caller);
  return { admin, userId: caller.userId, queueIds, seesNoQueue: admin || allTicket };
}

/** A ticket's key (company, status, queue, assignee, kanban lane), as `tickets` and `ticket_counts` hold it. */
export type TicketKey =
  | Pick<typeof tickets, 'companyId' | 'status' | 'queueId' | 'userId' | 'laneTagId'>
  | typeof ticketCounts;

/**
 * A filter on the ticket's key, stated over either table: its values are bound once, when it is
 * made, so that a list's page (on `tickets`) and its count (on `ticket_counts`) share them.
 */
export type KeyFilter = (t: TicketKey) => SQL | undefined;

/** The tickets a caller may see; admins see all of their company's. */
export function visibleTickets(access: TicketAccess, shape: QueryShape): KeyFilter {
  if (access.admin) {
    shape.choose('all');
    return () => undefined;
  }
  shape.choose(`visible:${access.queueIds.length ? 'q' : ''}${access.seesNoQueue ? 'n' : ''}`);
  const queueIds = access.queueIds.length ? shape.value('accessQueueIds', access.queueIds) : undefined;
  const userId = shape.unseen('userId', access.userId, 'int');
  return (t) =>
    or(
      queueIds ? anyOfUnseen(t.queueId, queueIds, 'int') : sql`false`,
      eq(t.userId, userId),
      access.seesNoQueue ? isNull(t.queueId) : sql`false`,
    );
}

export function canSee(access: TicketAccess, t: { queueId: number | null; userId: number | null }): boolean {
  if (access.admin || t.userId === access.userId) return true;
  return t.queueId === null ? access.seesNoQueue : access.queueIds.includes(t.queueId);
}

/** The socket rooms that must hear about a ticket in this state. */
export function ticketRooms(companyId: number, t: { queueId: number | null; userId: number | null }): string[] {
  const list = [
    rooms.admins(companyId),
    t.queueId === null ? rooms.noQueue(companyId) : rooms.queue(companyId, t.queueId),
  ];
  if (t.userId !== null) list.push(rooms.user(t.userId));
  return list;
}

/** The rooms a user's sockets join so that they receive the tickets they may see. */
export async function ticketRoomsOfCaller(db: Db, caller: Caller): Promise<string[]> {
  const access = await ticketAccessOf(db, caller);
  const list = access.queueIds.map((q) => rooms.queue(caller.companyId, q));
  if (access.admin) list.push(rooms.admins(caller.companyId));
  if (access.seesNoQueue) list.push(rooms.noQueue(caller.companyId));
  return list;
}

/** The company's rows of `t` (tickets, or their counts) that every key filter lets through, and `more`. */
export const companyKeys = (
  t: TicketKey,
  companyId: number | Placeholder | SQL,
  filters: KeyFilter[],
  ...more: (SQL | undefined)[]
) => and(eq(t.companyId, companyId), ...filters.map((f) => f(t)), ...more);
