import type { Tag, Ticket } from '@balcao/shared';
import { useDroppable } from '@dnd-kit/core';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { readableTextOn } from '../../components/colorContrast';
import { KanbanCard } from './KanbanCard';
import { kanbanApi, kanbanKeys, type LaneKey } from './kanbanApi';

export const laneDropId = (lane: LaneKey) => `lane:${lane}`;

interface KanbanLaneProps {
  lane: LaneKey;
  title: string;
  color: string;
  lanes: readonly Tag[];
  /** The queues the user shows (the tickets page's choice); the lane waits until they are known. */
  queueIds: readonly number[];
  queuesReady: boolean;
  selectedId: number | null;
  onOpen: (ticket: Ticket) => void;
  onMove: (ticket: Ticket, to: LaneKey) => void;
}

/** One column: its count, its cards in activity order, paged ("Carregar mais"). */
export function KanbanLane({
  lane,
  title,
  color,
  lanes,
  queueIds,
  queuesReady,
  selectedId,
  onOpen,
  onMove,
}: KanbanLaneProps) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: laneDropId(lane) });
  const query = useInfiniteQuery({
    queryKey: kanbanKeys.laneIn(lane, queueIds),
    queryFn: ({ pageParam }) => kanbanApi.lane(lane, pageParam, queueIds),
    enabled: queuesReady,
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const tickets = query.data?.pages.flatMap((page) => page.tickets) ?? [];
  const count = query.data?.pages[0]?.count ?? 0;
  return (
    <Paper
      ref={setNodeRef}
      variant="outlined"
      data-testid={`kanban-lane-${lane}`}
      aria-label={title}
      component="section"
      sx={{
        width: { xs: 272, sm: 300 },
        flexShrink: 0,
        display: 'flex',
        flexDirection: 'column',
        maxHeight: '100%',
        bgcolor: isOver ? 'action.hover' : 'background.default',
        outline: isOver ? 2 : 0,
        outlineColor: color,
      }}
    >
      <Stack
        direction="row"
        sx={{
          alignItems: 'center',
          gap: 1,
          px: 1.5,
          py: 1,
          bgcolor: color,
          color: readableTextOn(color),
          borderTopLeftRadius: 'inherit',
          borderTopRightRadius: 'inherit',
        }}
      >
        <Typography noWrap sx={{ fontWeight: 700, flex: 1 }} component="h2">
          {title}
        </Typography>
        <Typography variant="body2" data-testid={`kanban-lane-count-${lane}`}>
          {count}
        </Typography>
      </Stack>
      <Stack spacing={1} sx={{ p: 1, overflowY: 'auto', minHeight: 80, flex: 1 }}>
        {query.isPending && (
          <Box sx={{ display: 'grid', placeItems: 'center', py: 2 }}>
            <CircularProgress size={24} />
          </Box>
        )}
        {query.isSuccess && tickets.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', py: 2 }}>
            {t('kanban.empty')}
          </Typography>
        )}
        {tickets.map((ticket) => (
          <KanbanCard
            key={ticket.id}
            ticket={ticket}
            lane={lane}
            lanes={lanes}
            selected={ticket.id === selectedId}
            onOpen={onOpen}
            onMove={onMove}
          />
        ))}
        {query.hasNextPage && (
          <Button
            size="small"
            onClick={() => query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
            data-testid={`kanban-lane-more-${lane}`}
          >
            {t('kanban.loadMore')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
