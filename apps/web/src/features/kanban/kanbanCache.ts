import { KANBAN_OPEN_LANE, type KanbanReply, type Tag, type Ticket } from '@balcao/shared';
import type { InfiniteData } from '@tanstack/react-query';
import type { LaneKey } from './kanbanApi';

export type LaneData = InfiniteData<KanbanReply, number>;

/** The lane a ticket sits in: its (first) kanban tag, else "Em aberto". */
export function laneOf(ticket: Pick<Ticket, 'tags'>, laneTagIds: ReadonlySet<number>): LaneKey {
  return ticket.tags.find((tag) => laneTagIds.has(tag.id))?.id ?? KANBAN_OPEN_LANE;
}

const newestFirst = (a: Ticket, b: Ticket) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

/** The lane without the ticket (its count one less when it was there). */
export function withoutTicket(data: LaneData | undefined, ticketId: number): LaneData | undefined {
  if (!data?.pages.some((page) => page.tickets.some((t) => t.id === ticketId))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      tickets: page.tickets.filter((t) => t.id !== ticketId),
      count: Math.max(0, page.count - 1),
    })),
  };
}

/** The lane with the ticket: replaced where it is, else added in activity order (count one more). */
export function withTicket(data: LaneData | undefined, ticket: Ticket): LaneData | undefined {
  if (!data || data.pages.length === 0) return data;
  const present = data.pages.some((page) => page.tickets.some((t) => t.id === ticket.id));
  if (present) {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        tickets: page.tickets.map((t) => (t.id === ticket.id ? ticket : t)).sort(newestFirst),
      })),
    };
  }
  return {
    ...data,
    pages: data.pages.map((page, i) => ({
      ...page,
      tickets: i === 0 ? [ticket, ...page.tickets].sort(newestFirst) : page.tickets,
      count: page.count + 1,
    })),
  };
}

/** The ticket as it looks in `lane`: its kanban tags replaced by that lane's tag. */
export function movedTicket(ticket: Ticket, lane: LaneKey, lanes: readonly Tag[]): Ticket {
  const laneIds = new Set(lanes.map((l) => l.id));
  const kept = ticket.tags.filter((tag) => !laneIds.has(tag.id));
  const target = lane === KANBAN_OPEN_LANE ? undefined : lanes.find((l) => l.id === lane);
  return { ...ticket, tags: target ? [...kept, { id: target.id, name: target.name, color: target.color }] : kept };
}

export function findTicket(datas: (LaneData | undefined)[], ticketId: number): Ticket | undefined {
  for (const data of datas) {
    for (const page of data?.pages ?? []) {
      const found = page.tickets.find((t) => t.id === ticketId);
      if (found) return found;
    }
  }
  return undefined;
}
