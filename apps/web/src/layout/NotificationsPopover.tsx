import type { Ticket } from '@balcao/shared';
import NotificationsIcon from '@mui/icons-material/NotificationsOutlined';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PersonAvatar } from '../components/PersonAvatar';
import { plainText } from '../features/messages/content';
import { formatTicketTime } from '../features/tickets/format';
import { useBellList, useNotificationCount } from '../features/tickets/notifications';
import { listedTickets } from '../features/tickets/ticketsQueries';
import { TopBarPopover, TopBarPopoverList } from './TopBarPopover';

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
    <TopBarPopoverList
      list={list}
      empty={tickets.length === 0}
      emptyText={t('topbar.notificationsEmpty')}
      testId="notifications-list"
      emptyTestId="notifications-empty"
      maxHeight={420}
    >
      {tickets.map((ticket) => (
        <NotificationItem key={ticket.id} ticket={ticket} onOpen={() => onOpen(ticket)} />
      ))}
    </TopBarPopoverList>
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
  const [open, setOpen] = useState(false);

  return (
    <TopBarPopover
      label={t('topbar.notifications')}
      icon={<NotificationsIcon />}
      badgeContent={count}
      testId="notifications"
      badgeTestId="notifications-count"
      buttonData={{ 'data-count': count }}
      title={t('topbar.notificationsHint')}
      width={360}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
    >
      <NotificationsList
        onOpen={(ticket) => {
          setOpen(false);
          navigate(`/tickets/${ticket.uuid}`);
        }}
      />
    </TopBarPopover>
  );
}
