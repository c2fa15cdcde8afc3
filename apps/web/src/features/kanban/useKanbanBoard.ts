import {
  companyEvent,
  KANBAN_OPEN_LANE,
  type Tag,
  type Ticket,
  type TicketEvent,
  type TicketTagEvent,
} from '@balcao/shared';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { toastError } from '../../components/toastError';
import { kanbanApi, kanbanKeys, type LaneKey } from './kanbanApi';
import { findTicket, type LaneData, laneOf, movedTicket, withoutTicket, withTicket } from './kanbanCache';

function laneKeysOf(lanes: readonly Tag[]): LaneKey[] {
  return [KANBAN_OPEN_LANE, ...lanes.map((l) => l.id)];
}

/**
 * Puts the ticket in `lane` of the loaded lanes and out of every other one (`null`: out of the
 * board). Every loaded copy of a lane is kept in step, whatever queues it was read for.
 */
function place(
  queryClient: QueryClient,
  lanes: readonly Tag[],
  ticket: Ticket | null,
  ticketId: number,
  lane?: LaneKey,
) {
  for (const key of laneKeysOf(lanes)) {
    queryClient.setQueriesData<LaneData>({ queryKey: kanbanKeys.lane(key) }, (data) =>
      ticket && key === lane ? withTicket(data, ticket) : withoutTicket(data, ticketId),
    );
  }
}

function loadedLanes(queryClient: QueryClient, lanes: readonly Tag[]): (LaneData | undefined)[] {
  return laneKeysOf(lanes).flatMap((key) =>
    queryClient.getQueriesData<LaneData>({ queryKey: kanbanKeys.lane(key) }).map(([, data]) => data),
  );
}

/**
 * Mirrors the server's `GET /ticket/kanban` with `queueIds`: a ticket without a queue shows to
 * admins and users with `allTicket`; one of a selected queue to admins, its queue's members and
 * its own user. An update that takes a ticket out of that view takes it off the board.
 */
function onBoard(
  me: { id: number; profile: string; allTicket: string; queues: { id: number }[] },
  queueIds: readonly number[],
  ticket: Pick<Ticket, 'userId' | 'queueId'>,
): boolean {
  if (ticket.queueId === null) return me.profile === 'admin' || me.allTicket === 'enable';
  if (!queueIds.includes(ticket.queueId)) return false;
  return me.profile === 'admin' || ticket.userId === me.id || me.queues.some((q) => q.id === ticket.queueId);
}

/**
 * The board's lanes, its moves (DELETE, then PUT for a tag's lane, with the spec's toasts; the
 * card moves at once and goes back if the server refuses) and its live updates: moves and ticket
 * changes by others arrive through `company-{id}-ticketTag` and `company-{id}-ticket`.
 */
export function useKanbanBoard(queueIds: readonly number[]) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const queryClient = useQueryClient();
  const lanesQuery = useQuery({ queryKey: kanbanKeys.lanes, queryFn: kanbanApi.lanes });
  const lanes = useMemo(() => lanesQuery.data ?? [], [lanesQuery.data]);
  const lanesRef = useRef(lanes);
  lanesRef.current = lanes;
  const queueIdsRef = useRef(queueIds);
  queueIdsRef.current = queueIds;

  const refetchTickets = useCallback(
    () => queryClient.invalidateQueries({ queryKey: kanbanKeys.tickets }),
    [queryClient],
  );

  const move = useCallback(
    async (ticket: Ticket, to: LaneKey) => {
      const current = lanesRef.current;
      const from = laneOf(ticket, new Set(current.map((l) => l.id)));
      if (from === to) return;
      await queryClient.cancelQueries({ queryKey: kanbanKeys.tickets });
      place(queryClient, current, movedTicket(ticket, to, current), ticket.id, to);
      try {
        await kanbanApi.clear(ticket.id);
        if (from !== KANBAN_OPEN_LANE || to === KANBAN_OPEN_LANE) toast.success(t('kanban.removed'));
        if (to !== KANBAN_OPEN_LANE) {
          await kanbanApi.add(ticket.id, to);
          toast.success(t('kanban.added'));
        }
      } catch (err) {
        toastError(err);
      } finally {
        void refetchTickets();
      }
    },
    [queryClient, refetchTickets, t],
  );

  useSocketEvent<TicketTagEvent>(companyEvent.ticketTag(me.companyId), (event) => {
    const current = lanesRef.current;
    const ticket = findTicket(loadedLanes(queryClient, current), event.ticketId);
    if (!ticket) {
      void refetchTickets();
      return;
    }
    const to: LaneKey = event.laneTagId ?? KANBAN_OPEN_LANE;
    place(queryClient, current, movedTicket(ticket, to, current), ticket.id, to);
  });

  useSocketEvent<TicketEvent>(companyEvent.ticket(me.companyId), (event) => {
    const current = lanesRef.current;
    if (event.action === 'delete' && event.ticketId !== undefined) place(queryClient, current, null, event.ticketId);
    if (event.action !== 'update' || !event.ticket) return;
    const { ticket } = event;
    if (ticket.status === 'closed' || !onBoard(me, queueIdsRef.current, ticket)) {
      place(queryClient, current, null, ticket.id);
    } else place(queryClient, current, ticket, ticket.id, laneOf(ticket, new Set(current.map((l) => l.id))));
  });

  // A tag renamed, recoloured, or turned into a lane or out of one.
  useSocketEvent(companyEvent.tag(me.companyId), () => {
    void queryClient.invalidateQueries({ queryKey: kanbanKeys.all });
  });

  return { lanes, lanesQuery, move };
}
