import type { Ticket } from '@balcao/shared';
import NotificationsIcon from '@mui/icons-material/NotificationsOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { onScrollLoadMore } from '../components/infiniteScroll';
import { PersonAvatar } from '../components/PersonAvatar';
import { plainText } from '../features/messages/content';
import { formatTicketTime } from '../features/tickets/format';
import { useBellList, useNotificationCount } from '../features/tickets/notifications';
import { listedTickets } from '../features/tickets/ticketsQueries';

function NotificationItem({ ticket, onOpen }: { ticket: Ticket; onOpen: () => void }) {
  return (
    <ListItemButton divider alignItems="flex-start" onClick={onOpen} data-testid={`notification-item-${ticket.id}`}>
      <ListItemAvatar sx={{ minWidth: 52 }}>
        <PersonAvatar name={ticket.contact.name} src={ticket.contact.profilePicUrl} />
      </ListItemAvatar>
      <ListItemText
        disableTypography
        primary={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline' }}>
            <Typography variant="body2" noWrap sx={{ fontWeight: 700, flex: 1, minWidth: 0 }}>
              {ticket.contact.name}
            </Typography>
            <Typography variant="caption" color="success.main" sx={{ flexShrink: 0 }}>
              {formatTicketTime(ticket.updatedAt)}
            </Typography>
          </Stack>
        }
        secondary={
          <Typography variant="body2" color="text.secondary" noWrap>
            {plainText(ticket.lastMessage)}
          </Typography>
        }
      />
    </ListItemButton>
  );
}

/**
 * The pending tickets with unread messages, page by page (the next one near the bottom); the
 * live channel keeps it current (useTicketNotifications).
 */
function NotificationsList({ onOpen }: { onOpen: (ticket: Ticket) => void }) {
  const { t } = useTranslation();
  const list = useBellList();
  const tickets = listedTickets(list.data);

  return (
    <Box
      data-testid="notifications-list"
      onScroll={onScrollLoadMore(list.hasNextPage, list.isFetching, () => void list.fetchNextPage())}
      sx={{ maxHeight: 420, overflowY: 'auto' }}
    >
      <List disablePadding>
        {tickets.map((ticket) => (
          <NotificationItem key={ticket.id} ticket={ticket} onOpen={() => onOpen(ticket)} />
        ))}
      </List>
      {(list.isPending || list.isFetchingNextPage) && (
        <Box sx={{ display: 'grid', placeItems: 'center', py: 2 }}>
          <CircularProgress size={22} />
        </Box>
      )}
      {!list.isPending && tickets.length === 0 && (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ textAlign: 'center', px: 2, py: 4 }}
          data-testid="notifications-empty"
        >
          {t('topbar.notificationsEmpty')}
        </Typography>
      )}
    </Box>
  );
}

/**
 * The top bar's bell (spec §2): its badge counts the pending tickets with unread messages that it
 * lists, each opening its ticket.
 */
export function NotificationsPopover() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const count = useNotificationCount();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  return (
    <>
      <Tooltip title={t('topbar.notifications')}>
        <IconButton
          color="inherit"
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-label={t('topbar.notifications')}
          data-testid="notifications-button"
          data-count={count}
        >
          <Badge
            color="error"
            badgeContent={count}
            max={99}
            slotProps={{ badge: { 'data-testid': 'notifications-count' } as object }}
          >
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            'data-testid': 'notifications-popover',
            sx: { width: 360, maxWidth: 'calc(100vw - 32px)' },
          } as object,
        }}
      >
        <Typography
          variant="subtitle2"
          sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}
          data-testid="notifications-title"
        >
          {t('topbar.notificationsHint')}
        </Typography>
        <NotificationsList
          onOpen={(ticket) => {
            setAnchor(null);
            navigate(`/tickets/${ticket.uuid}`);
          }}
        />
      </Popover>
    </>
  );
}
