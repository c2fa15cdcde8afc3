import { KANBAN_OPEN_LANE, type KanbanReply, type Tag, type TicketTagReply } from '@balcao/shared';
import { http } from '../../api/client';

/** A lane: "Em aberto" (no kanban tag) or a kanban tag's id. */
export type LaneKey = typeof KANBAN_OPEN_LANE | number;

export const kanbanKeys = {
  all: ['kanban'] as const,
  lanes: ['kanban', 'lanes'] as const,
  tickets: ['kanban', 'tickets'] as const,
  lane: (lane: LaneKey) => ['kanban', 'tickets', lane] as const,
};

export const kanbanApi = {
  /** The kanban tags, in name order (`GET /tags/kanban` → `{lista}`). */
  lanes: async () => (await http.get<{ lista: Tag[] }>('/tags/kanban')).lista,
  /** One page of one lane, most recent activity first. */
  lane: (lane: LaneKey, pageNumber: number) =>
    http.get<KanbanReply>(
      '/ticket/kanban',
      lane === KANBAN_OPEN_LANE ? { lane: KANBAN_OPEN_LANE, pageNumber } : { tagId: lane, pageNumber },
    ),
  /** Back to "Em aberto": removes the ticket's kanban tags only. */
  clear: (ticketId: number) => http.delete<TicketTagReply>(`/ticket-tags/${ticketId}`),
  /** Into a tag's lane; the server takes the ticket out of its other lanes in the same transaction. */
  add: (ticketId: number, tagId: number) => http.put<TicketTagReply>(`/ticket-tags/${ticketId}/${tagId}`),
};
