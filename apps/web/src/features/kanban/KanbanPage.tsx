import { KANBAN_OPEN_LANE, type Ticket } from '@balcao/shared';
import {
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import Close from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageContainer } from '../../components/PageContainer';
import { QueueFilter } from '../tickets/QueueFilter';
import { useSelectedQueues } from '../tickets/useSelectedQueues';
import { KanbanCardBody } from './KanbanCard';
import { KanbanChatPanel } from './KanbanChatPanel';
import { KanbanLane } from './KanbanLane';
import type { LaneKey } from './kanbanApi';
import { laneKeyboardCoordinates } from './laneKeyboard';
import { useKanbanBoard } from './useKanbanBoard';

/** The lane a drop aims at (`lane:open`, `lane:12`), or null when it fell outside every lane. */
export function dropTarget(event: Pick<DragEndEvent, 'active' | 'over'>): { ticket: Ticket; to: LaneKey } | null {
  const ticket = (event.active.data.current as { ticket?: Ticket } | undefined)?.ticket;
  const over = event.over ? String(event.over.id) : '';
  if (!ticket || !over.startsWith('lane:')) return null;
  const key = over.slice('lane:'.length);
  if (key === KANBAN_OPEN_LANE) return { ticket, to: KANBAN_OPEN_LANE };
  const id = Number(key);
  return Number.isInteger(id) && id > 0 ? { ticket, to: id } : null;
}

/**
 * /kanban (DOMAIN §13): "Em aberto", then one lane per kanban tag in its colour, holding the
 * tickets of the queues selected (the tickets page's filter, also offered here). A card dropped on
 * another lane moves the ticket there, with the mouse, a finger, or the keyboard (space, ← →,
 * space: one lane a press); a click opens its chat beside the board (on a phone, the ticket's
 * page). Lanes scroll sideways on small screens.
 */
export default function KanbanPage() {
  const { t } = useTranslation();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const navigate = useNavigate();
  const queues = useSelectedQueues();
  const queueIds = useMemo(() => [...queues.selected].sort((a, b) => a - b), [queues.selected]);
  const { lanes, move } = useKanbanBoard(queueIds);
  const [dragged, setDragged] = useState<Ticket | null>(null);
  const [chat, setChat] = useState<Ticket | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: laneKeyboardCoordinates }),
  );

  const open = (ticket: Ticket) => {
    if (wide) setChat(ticket);
    else navigate(`/tickets/${ticket.uuid}`);
  };
  const onDragStart = (event: DragStartEvent) =>
    setDragged((event.active.data.current as { ticket?: Ticket } | undefined)?.ticket ?? null);
  const onDragEnd = (event: DragEndEvent) => {
    setDragged(null);
    const target = dropTarget(event);
    if (target) void move(target.ticket, target.to);
  };
  const laneProps = {
    lanes,
    queueIds,
    queuesReady: queues.ready,
    selectedId: chat?.id ?? null,
    onOpen: open,
    onMove: move,
  };

  return (
    <PageContainer title={t('pages.kanban')} actions={<QueueFilter queues={queues} testId="kanban-queue" />}>
      <Box sx={{ display: 'flex', gap: 1.5, flex: 1, minHeight: 0 }} data-testid="kanban-page">
        <DndContext
          sensors={sensors}
          onDragStart={onDragStart}
          onDragEnd={onDragEnd}
          onDragCancel={() => setDragged(null)}
          accessibility={{
            screenReaderInstructions: { draggable: t('kanban.dragInstructions') },
          }}
        >
          <Box
            data-testid="kanban-board"
            sx={{
              display: 'flex',
              gap: 1.5,
              flex: 1,
              minWidth: 0,
              alignItems: 'flex-start',
              overflowX: 'auto',
              overflowY: 'hidden',
              pb: 1,
              scrollSnapType: { xs: 'x mandatory', sm: 'none' },
              '& > section': { scrollSnapAlign: 'start', height: '100%' },
            }}
          >
            <KanbanLane lane={KANBAN_OPEN_LANE} title={t('kanban.openLane')} color="#5C6BC0" {...laneProps} />
            {lanes.map((lane) => (
              <KanbanLane key={lane.id} lane={lane.id} title={lane.name} color={lane.color} {...laneProps} />
            ))}
          </Box>
          <DragOverlay>
            {dragged && (
              <Card variant="outlined" sx={{ width: 280, boxShadow: 6, cursor: 'grabbing' }}>
                <KanbanCardBody ticket={dragged} />
              </Card>
            )}
          </DragOverlay>
        </DndContext>
        {wide && chat && (
          <Box
            sx={{ width: '42%', minWidth: 380, height: '100%', position: 'relative', flexShrink: 0 }}
            data-testid="kanban-chat"
          >
            <IconButton
              aria-label={t('common.close')}
              onClick={() => setChat(null)}
              data-testid="kanban-chat-close"
              size="small"
              sx={{ position: 'absolute', top: -34, right: 0 }}
            >
              <Close fontSize="small" />
            </IconButton>
            <KanbanChatPanel key={chat.uuid} uuid={chat.uuid} />
          </Box>
        )}
      </Box>
    </PageContainer>
  );
}
