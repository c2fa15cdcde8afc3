import { KANBAN_OPEN_LANE, type KanbanReply, type Tag, type TicketTagReply } from '@balcao/shared';
import { http } from '../../api/client';

/** A lane: "Em aberto" (no kanban tag) or a kanban tag's id. */
export type LaneKey = typeof KANBAN_OPEN_LANE | number;

export const kanbanKeys = {
  all: ['kanban'] as const,
  lanes: ['kanban', 'lanes'] as const,
  tickets: ['kanban', 'tickets'] as const,
  /** Every loaded copy of a lane (whatever the queues): the prefix of `laneIn`. */
  lane: (lane: LaneKey) => ['kanban', 'tickets', lane] as const,
  /** A lane as read for the selected queues (sorted ids). */
  laneIn: (lane: LaneKey, queueIds: readonly number[]) => ['kanban', 'tickets', lane, queueIds] as const,
};

export const kanbanApi = {
  /** The kanban tags, in name order (`GET /tags/kanban` → `{lista}`). */
  lanes: async () => (await http.get<{ lista: Tag[] }>('/tags/kanban')).lista,
  /** One page of one lane, most recent activity first, in the selected queues (`queueIds` as the tickets list sends it). */
  lane: (lane: LaneKey, pageNumber: number, queueIds: readonly number[]) =>
    http.get<KanbanReply>('/ticket/kanban', {
      ...(lane === KANBAN_OPEN_LANE ? { lane: KANBAN_OPEN_LANE } : { tagId: lane }),
      pageNumber,
      queueIds: JSON.stringify(queueIds),
    }),
  /** Back to "Em aberto": removes the ticket's kanban tags only. */
  clear: (ticketId: number) => http.delete<TicketTagReply>(`/ticket-tags/${ticketId}`),
  /** Into a tag's lane; the server takes the ticket out of its other lanes in the same transaction. */
  add: (ticketId: number, tagId: number) => http.put<TicketTagReply>(`/ticket-tags/${ticketId}/${tagId}`),
};
