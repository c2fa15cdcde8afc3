import type { Ticket } from '@balcao/shared';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { onScrollLoadMore } from '../../components/infiniteScroll';
import { type TicketItemActions, TicketListItem } from './TicketListItem';

function SkeletonItem() {
  return (
    <Stack direction="row" spacing={1.5} sx={{ px: 2, py: 1.25 }}>
      <Skeleton variant="circular" width={42} height={42} />
      <Box sx={{ flex: 1 }}>
        <Skeleton width="60%" />
        <Skeleton width="90%" />
      </Box>
    </Stack>
  );
}

interface TicketsListViewProps extends TicketItemActions {
  tickets: Ticket[];
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  loadMore: () => void;
  selectedUuid: string | undefined;
  busyId: number | null;
}

/** A scrolling list of tickets that loads the next page within 100 px of its bottom. */
export function TicketsListView({
  tickets,
  loading,
  loadingMore,
  hasMore,
  loadMore,
  selectedUuid,
  busyId,
  ...actions
}: TicketsListViewProps) {
  const { t } = useTranslation();
  return (
    <Box
      data-testid="ticket-list"
      onScroll={onScrollLoadMore(hasMore, loading || loadingMore, loadMore)}
      sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }}
    >
      <Box component="ul" sx={{ m: 0, p: 0 }}>
        {tickets.map((ticket) => (
          <TicketListItem
            key={ticket.id}
            ticket={ticket}
            selected={ticket.uuid === selectedUuid}
            busy={busyId === ticket.id}
            {...actions}
          />
        ))}
      </Box>
      {(loading || loadingMore) && (
        <>
          <SkeletonItem />
          <SkeletonItem />
          <SkeletonItem />
        </>
      )}
      {!loading && tickets.length === 0 && (
        <Box sx={{ textAlign: 'center', px: 3, py: 6 }} data-testid="ticket-list-empty">
          <Typography sx={{ fontWeight: 600 }}>{t('tickets.empty.title')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t('tickets.empty.text')}
          </Typography>
        </Box>
      )}
    </Box>
  );
}
