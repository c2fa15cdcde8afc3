import { companyEvent, type TicketEvent } from '@balcao/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { MessageInput } from '../messages/MessageInput';
import { MessagesList } from '../messages/MessagesList';
import { messagesApi } from '../messages/messagesApi';
import { ReplyProvider } from '../messages/ReplyContext';
import { ContactDrawer } from './ContactDrawer';
import { ticketNotifications } from './notifications';
import { TagsEditor } from './TagsEditor';
import { TicketHeader } from './TicketHeader';
import type { AppMessagePayload } from './ticketsCache';
import { isTicket, lookupTicket } from './ticketsQueries';
import { useTicketActions } from './useTicketActions';

const READ_DELAY_MS = 400;

/**
 * The chat of one ticket (/tickets/:uuid). A ticket outside the user's queues shows "Acesso não
 * permitido" and goes back to /tickets; a link to one that does not exist (or no longer does) shows
 * the ERR_NO_TICKET_FOUND text and goes back too; one deleted while on screen says so (spec §2).
 */
export function TicketChat({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const navigate = useNavigate();
  const actions = useTicketActions();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const lookup = useQuery({ queryKey: queryKeys.tickets.detail(uuid), queryFn: () => lookupTicket(uuid) });
  const ticket = isTicket(lookup.data) ? lookup.data : null;
  const unavailable = lookup.data && !isTicket(lookup.data) ? lookup.data.unavailable : null;

  useEffect(() => {
    if (unavailable === 'denied') toast.error(t('errors.noPermission'), { toastId: 'ticket-denied' });
    if (unavailable === 'missing') toast.error(t('backendErrors.ERR_NO_TICKET_FOUND'), { toastId: 'ticket-missing' });
    if (unavailable) navigate('/tickets', { replace: true });
  }, [unavailable, navigate, t]);

  const ticketId = ticket?.id ?? null;
  useEffect(() => {
    ticketNotifications.setViewing(ticketId);
    return () => ticketNotifications.setViewing(null);
  }, [ticketId]);

  // A contact message in the ticket on screen is read at once: fetching page 1 of an open ticket
  // marks it read on the server (zeroes the unread count and sends read receipts).
  const readTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(readTimer.current), []);
  useSocketEvent<AppMessagePayload>(companyEvent.appMessage(me.companyId), ({ action, message }) => {
    if (action !== 'create' || message.fromMe || message.ticketId !== ticketId) return;
    if (ticket?.status !== 'open' || document.visibilityState === 'hidden') return;
    clearTimeout(readTimer.current);
    readTimer.current = setTimeout(
      () => void messagesApi.list(message.ticketId, 1).catch(() => undefined),
      READ_DELAY_MS,
    );
  });

  useSocketEvent<TicketEvent>(companyEvent.ticket(me.companyId), (event) => {
    if (event.action === 'delete' && ticketId !== null && event.ticketId === ticketId) {
      toast.success(t('tickets.deletedLive'), { toastId: `ticket-deleted-${ticketId}` });
      navigate('/tickets');
    }
  });

  if (!ticket)
    return (
      <Paper variant="outlined" sx={{ height: '100%', display: 'grid', placeItems: 'center' }}>
        {lookup.isError ? (
          <Button onClick={() => void lookup.refetch()} data-testid="ticket-retry">
            {t('tickets.retry')}
          </Button>
        ) : (
          <CircularProgress />
        )}
      </Paper>
    );

  return (
    <ReplyProvider key={ticket.id}>
      <Box sx={{ display: 'flex', height: '100%', gap: 1, position: 'relative', minWidth: 0 }}>
        <Paper
          variant="outlined"
          data-testid="ticket-chat"
          data-ticket-id={ticket.id}
          data-status={ticket.status}
          sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
        >
          <TicketHeader ticket={ticket} onContactClick={() => setDrawerOpen((open) => !open)} />
          <TagsEditor ticket={ticket} />
          <MessagesList key={ticket.id} ticket={ticket} />
          <MessageInput
            ticket={ticket}
            onAccept={() => actions.accept(ticket)}
            accepting={actions.busyId === ticket.id}
          />
        </Paper>
        {drawerOpen && <ContactDrawer ticket={ticket} onClose={() => setDrawerOpen(false)} />}
      </Box>
    </ReplyProvider>
  );
}
