import { MOBILE_BREAKPOINT_PX, type Ticket } from '@balcao/shared';
import CheckCircle from '@mui/icons-material/CheckCircleOutlineOutlined';
import Replay from '@mui/icons-material/Replay';
import TaskAlt from '@mui/icons-material/TaskAlt';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { KeyboardEvent, MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ColorChip } from '../../components/ColorChip';
import { PersonAvatar } from '../../components/PersonAvatar';
import { plainText } from '../messages/content';
import { formatTicketTime, shortName } from './format';

/** MUI's grey 500: the chip of a ticket without a queue. */
const NO_QUEUE_GREY = '#9E9E9E';

const STATUS_COLOR = { open: 'success.main', pending: 'warning.main', closed: 'grey.500' } as const;

export interface TicketItemActions {
  onOpen: (ticket: Ticket) => void;
  onAccept: (ticket: Ticket) => void;
  onResolve: (ticket: Ticket) => void;
  onReopen: (ticket: Ticket) => void;
  /** Admins only: the read-only look at a pending ticket. */
  onPeek?: (ticket: Ticket) => void;
}

interface TicketListItemProps extends TicketItemActions {
  ticket: Ticket;
  selected: boolean;
  busy: boolean;
}

function stop(handler: () => void) {
  return (event: MouseEvent) => {
    event.stopPropagation();
    handler();
  };
}

/**
 * One ticket of the list: status dot, contact, last message, chips (connection, user, queue,
 * tags), unread badge, time and the action of its status. Pending tickets do not open on click.
 */
export function TicketListItem({
  ticket,
  selected,
  busy,
  onOpen,
  onAccept,
  onResolve,
  onReopen,
  onPeek,
}: TicketListItemProps) {
  const { t } = useTranslation();
  const narrow = useMediaQuery(`(max-width:${MOBILE_BREAKPOINT_PX - 0.05}px)`, { noSsr: true });
  const openable = ticket.status !== 'pending';
  const open = () => openable && onOpen(ticket);

  return (
    <Box
      component="li"
      data-testid={`ticket-item-${ticket.id}`}
      data-status={ticket.status}
      aria-selected={selected}
      // Not aria-disabled: that would also disable its accept button for assistive tech.
      data-openable={openable}
      tabIndex={openable ? 0 : -1}
      onClick={open}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'Enter' && event.target === event.currentTarget) open();
      }}
      sx={{
        listStyle: 'none',
        position: 'relative',
        display: 'flex',
        gap: 1.25,
        pl: 1.75,
        pr: 1,
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
        cursor: openable ? 'pointer' : 'default',
        bgcolor: selected ? 'action.selected' : 'transparent',
        '&:hover': { bgcolor: selected ? 'action.selected' : 'action.hover' },
        '&::before': {
          content: '""',
          position: 'absolute',
          left: 0,
          top: 0,
          bottom: 0,
          width: 5,
          bgcolor: ticket.queue?.color ?? 'grey.400',
        },
      }}
    >
      <Badge
        overlap="circular"
        variant="dot"
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        data-testid="ticket-status-dot"
        sx={{
          alignSelf: 'flex-start',
          '& .MuiBadge-dot': {
            bgcolor: STATUS_COLOR[ticket.status],
            border: 2,
            borderColor: 'background.paper',
            width: 12,
            height: 12,
            borderRadius: '50%',
          },
        }}
      >
        <PersonAvatar name={ticket.contact.name} src={ticket.contact.profilePicUrl} size={42} />
      </Badge>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="body2" noWrap sx={{ fontWeight: 700, flex: 1, minWidth: 0 }} title={ticket.contact.name}>
            {shortName(ticket.contact.name, narrow)}
          </Typography>
          <Typography
            variant="caption"
            color={ticket.unreadMessages > 0 ? 'success.main' : 'text.secondary'}
            sx={{ flexShrink: 0 }}
            data-testid="ticket-time"
          >
            {formatTicketTime(ticket.updatedAt)}
          </Typography>
        </Stack>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minHeight: 22 }}>
          <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0 }}>
            {plainText(ticket.lastMessage)}
          </Typography>
          {ticket.unreadMessages > 0 && (
            <Chip
              size="small"
              color="success"
              label={ticket.unreadMessages}
              data-testid="ticket-unread"
              sx={{ height: 20, minWidth: 20, fontWeight: 700, '& .MuiChip-label': { px: 0.75 } }}
            />
          )}
        </Stack>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mt: 0.5, alignItems: 'center' }}>
          <Chip size="small" variant="outlined" label={ticket.whatsapp.name} data-testid="ticket-connection" />
          {ticket.user && (
            <Chip size="small" color="primary" variant="outlined" label={ticket.user.name} data-testid="ticket-user" />
          )}
          <ColorChip
            size="small"
            label={ticket.queue?.name ?? t('tickets.noQueue')}
            data-testid="ticket-queue"
            color={ticket.queue?.color ?? NO_QUEUE_GREY}
          />
          {ticket.tags.map((tag) => (
            <ColorChip key={tag.id} size="small" label={tag.name} color={tag.color} sx={{ height: 20, fontSize: 11 }} />
          ))}
          <Box sx={{ flex: 1 }} />
          {ticket.status === 'pending' && onPeek && (
            <Tooltip title={t('tickets.peek')}>
              <IconButton size="small" onClick={stop(() => onPeek(ticket))} data-testid="peek-button">
                <VisibilityOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          {ticket.status === 'pending' && (
            <Button
              size="small"
              variant="contained"
              color="success"
              startIcon={<CheckCircle />}
              disabled={busy}
              onClick={stop(() => onAccept(ticket))}
              data-testid="accept-button"
            >
              {t('tickets.actions.accept')}
            </Button>
          )}
          {ticket.status === 'open' && (
            <Button
              size="small"
              variant="outlined"
              color="primary"
              startIcon={<TaskAlt />}
              disabled={busy}
              onClick={stop(() => onResolve(ticket))}
              data-testid="resolve-button"
            >
              {t('tickets.actions.resolve')}
            </Button>
          )}
          {ticket.status === 'closed' && (
            <Button
              size="small"
              variant="outlined"
              startIcon={<Replay />}
              disabled={busy}
              onClick={stop(() => onReopen(ticket))}
              data-testid="reopen-button"
            >
              {t('tickets.actions.reopen')}
            </Button>
          )}
        </Stack>
      </Box>
    </Box>
  );
}
