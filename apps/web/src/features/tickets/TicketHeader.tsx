import { can, MOBILE_BREAKPOINT_PX, type Ticket } from '@balcao/shared';
import ArrowBack from '@mui/icons-material/ArrowBack';
import CheckCircle from '@mui/icons-material/CheckCircleOutlineOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import Replay from '@mui/icons-material/Replay';
import Schedule from '@mui/icons-material/ScheduleOutlined';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import TaskAlt from '@mui/icons-material/TaskAlt';
import Undo from '@mui/icons-material/Undo';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMutation } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSessionUser } from '../../app/AuthContext';
import { planAllows } from '../../app/gates';
import { ConfirmationModal } from '../../components/ConfirmationModal';
import { PersonAvatar } from '../../components/PersonAvatar';
import { toastError } from '../../components/toastError';
import { ScheduleModal } from '../schedules/ScheduleModal';
import { TransferTicketModal } from './TransferTicketModal';
import { ticketsApi } from './ticketsApi';
import { useTicketActions } from './useTicketActions';

interface TicketHeaderProps {
  ticket: Ticket;
  onContactClick: () => void;
}

const BOLD = { fontWeight: 700 };
const TWO_LINES = {
  display: '-webkit-box',
  WebkitLineClamp: 2,
  WebkitBoxOrient: 'vertical',
  overflow: 'hidden',
  overflowWrap: 'anywhere',
  lineHeight: 1.25,
} as const;

interface StatusActionProps {
  narrow: boolean;
  icon: ReactElement;
  label: string;
  onClick: () => void;
  disabled: boolean;
  testId: string;
  color?: 'primary' | 'success';
  variant?: 'contained' | 'outlined';
}

/** A status action: a labelled button, or on a phone an icon button with the label as its name and tooltip. */
function StatusAction({
  narrow,
  icon,
  label,
  onClick,
  disabled,
  testId,
  color = 'primary',
  variant = 'contained',
}: StatusActionProps) {
  if (narrow)
    return (
      <Tooltip title={label}>
        <span>
          <IconButton color={color} onClick={onClick} disabled={disabled} aria-label={label} data-testid={testId}>
            {icon}
          </IconButton>
        </span>
      </Tooltip>
    );
  return (
    <Button variant={variant} color={color} startIcon={icon} onClick={onClick} disabled={disabled} data-testid={testId}>
      {label}
    </Button>
  );
}

/** Contact, status actions (return, resolve, accept, reopen) and the options menu of the open chat. */
export function TicketHeader({ ticket, onContactClick }: TicketHeaderProps) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const navigate = useNavigate();
  const actions = useTicketActions();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [transferring, setTransferring] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const busy = actions.busyId === ticket.id;
  // On a phone the status actions shrink to icons, so the contact's name keeps the room.
  const narrow = useMediaQuery(`(max-width:${MOBILE_BREAKPOINT_PX - 0.05}px)`, { noSsr: true });
  const remove = useMutation({
    mutationFn: () => ticketsApi.remove(ticket.id),
    onSuccess: () => navigate('/tickets'),
    onError: toastError,
  });

  return (
    <Stack
      direction="row"
      spacing={1}
      data-testid="ticket-header"
      sx={{ alignItems: 'center', px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider', minHeight: 64 }}
    >
      <IconButton
        onClick={() => navigate('/tickets')}
        aria-label={t('tickets.back')}
        sx={{ display: { md: 'none' } }}
        size="small"
      >
        <ArrowBack />
      </IconButton>
      <Box
        onClick={onContactClick}
        data-testid="ticket-contact"
        sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0, flex: 1, cursor: 'pointer' }}
      >
        <PersonAvatar name={ticket.contact.name} src={ticket.contact.profilePicUrl} />
        <Box sx={{ minWidth: 0 }}>
          <Typography
            noWrap={!narrow}
            // On a phone a long name takes a second line rather than an ellipsis.
            sx={narrow ? { ...BOLD, ...TWO_LINES } : BOLD}
            data-testid="ticket-contact-name"
          >
            {ticket.contact.name}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="div">
            {ticket.contact.number}
            {ticket.user ? ` · ${t('tickets.assignedTo', { name: ticket.user.name })}` : ''}
          </Typography>
        </Box>
      </Box>
      {ticket.status === 'open' && (
        <>
          {!narrow && (
            <Tooltip title={t('tickets.actions.return')}>
              <span>
                <IconButton
                  onClick={() => actions.returnToPending(ticket)}
                  disabled={busy}
                  data-testid="return-button"
                  aria-label={t('tickets.actions.return')}
                >
                  <Undo />
                </IconButton>
              </span>
            </Tooltip>
          )}
          <StatusAction
            narrow={narrow}
            icon={<TaskAlt />}
            label={t('tickets.actions.resolve')}
            onClick={() => actions.resolve(ticket, true)}
            disabled={busy}
            testId="resolve-button"
          />
        </>
      )}
      {ticket.status === 'pending' && (
        <StatusAction
          narrow={narrow}
          color="success"
          icon={<CheckCircle />}
          label={t('tickets.actions.accept')}
          onClick={() => actions.accept(ticket)}
          disabled={busy}
          testId="accept-button"
        />
      )}
      {ticket.status === 'closed' && (
        <StatusAction
          narrow={narrow}
          variant="outlined"
          icon={<Replay />}
          label={t('tickets.actions.reopen')}
          onClick={() => actions.reopen(ticket)}
          disabled={busy}
          testId="reopen-button"
        />
      )}
      <IconButton
        onClick={(event) => setMenu(event.currentTarget)}
        aria-label={t('tickets.options.title')}
        data-testid="ticket-options-button"
      >
        <MoreVert />
      </IconButton>
      <Menu anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)}>
        {narrow && ticket.status === 'open' && (
          <MenuItem
            onClick={() => {
              setMenu(null);
              actions.returnToPending(ticket);
            }}
            disabled={busy}
            data-testid="return-button"
          >
            <ListItemIcon>
              <Undo fontSize="small" />
            </ListItemIcon>
            {t('tickets.actions.return')}
          </MenuItem>
        )}
        {planAllows(me, 'useSchedules') && (
          <MenuItem
            onClick={() => {
              setMenu(null);
              setScheduling(true);
            }}
            data-testid="schedule-button"
          >
            <ListItemIcon>
              <Schedule fontSize="small" />
            </ListItemIcon>
            {t('tickets.options.schedule')}
          </MenuItem>
        )}
        <MenuItem
          onClick={() => {
            setMenu(null);
            setTransferring(true);
          }}
          data-testid="transfer-button"
        >
          <ListItemIcon>
            <SwapHoriz fontSize="small" />
          </ListItemIcon>
          {t('tickets.options.transfer')}
        </MenuItem>
        {can(me.profile, 'ticket-options:deleteTicket') && (
          <MenuItem
            onClick={() => {
              setMenu(null);
              setConfirmDelete(true);
            }}
            data-testid="delete-ticket-button"
            sx={{ color: 'error.main' }}
          >
            <ListItemIcon>
              <DeleteOutline fontSize="small" color="error" />
            </ListItemIcon>
            {t('tickets.options.delete')}
          </MenuItem>
        )}
      </Menu>
      <TransferTicketModal ticket={ticket} open={transferring} onClose={() => setTransferring(false)} />
      <ScheduleModal open={scheduling} record={null} contact={ticket.contact} onClose={() => setScheduling(false)} />
      <ConfirmationModal
        open={confirmDelete}
        title={t('tickets.options.deleteTitle', { id: ticket.id })}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => remove.mutate()}
      >
        {t('tickets.options.deleteMessage')}
      </ConfirmationModal>
      {actions.dialog}
    </Stack>
  );
}
