import type { Ticket, TicketUpdate } from '@balcao/shared';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSessionUser } from '../../app/AuthContext';
import { toastError } from '../../components/toastError';
import { useConfirmation } from '../../components/useConfirmation';
import { settingValue, useSettings } from '../settings/settingsApi';
import { ticketsApi } from './ticketsApi';
import { useStoreTicket, viewerOf } from './ticketsQueries';
import { toastWithUndo } from './undoToast';

interface Change {
  ticket: Ticket;
  change: TicketUpdate;
}

/** PUT bodies of the ticket transitions (spec §4). */
export const transitions = {
  accept: (userId: number): TicketUpdate => ({ status: 'open', userId }),
  returnToPending: (): TicketUpdate => ({ status: 'pending' }),
  resolve: (userId: number): TicketUpdate => ({
    status: 'closed',
    userId,
    useIntegration: false,
    promptId: false,
    integrationId: false,
  }),
  reopen: (userId: number): TicketUpdate => ({ status: 'open', userId }),
};

/**
 * The status changes of a ticket, shared by the list and the chat. The reply updates every cached
 * list at once; accepting or reopening opens the ticket, resolving or returning it leaves it.
 */
export function useTicketActions() {
  const { t } = useTranslation();
  const me = useSessionUser();
  const navigate = useNavigate();
  const store = useStoreTicket(viewerOf(me));
  const update = useMutation({
    mutationFn: ({ ticket, change }: Change) => ticketsApi.update(ticket.id, change),
    onSuccess: (updated) => store(updated),
    onError: toastError,
  });

  const run = (ticket: Ticket, change: TicketUpdate, then?: (updated: Ticket) => void) =>
    update.mutate({ ticket, change }, { onSuccess: then });
  const opened = (updated: Ticket) => navigate(`/tickets/${updated.uuid}`);
  const reopen = (ticket: Ticket) => run(ticket, transitions.reopen(me.id), opened);
  // The undo outlives the chat it came from (resolving left it): a plain call, not this hook's mutation.
  const undoResolve = (ticket: Ticket) =>
    ticketsApi
      .update(ticket.id, transitions.reopen(me.id))
      .then((updated) => {
        store(updated);
        opened(updated);
      })
      .catch(toastError);

  const resolveNow = ({ ticket, leave }: { ticket: Ticket; leave: boolean }) =>
    run(ticket, transitions.resolve(me.id), (updated) => {
      if (leave) navigate('/tickets');
      toastWithUndo(
        t('tickets.resolvedToast'),
        t('tickets.undo'),
        () => undoResolve(updated),
        `resolved-${updated.id}`,
      );
    });
  // The company's closeConfirmation setting asks first; the undo stays either way.
  const confirmResolve = useConfirmation<{ ticket: Ticket; leave: boolean }>({
    title: () => t('tickets.resolveConfirmTitle'),
    message: ({ ticket }) => t('tickets.resolveConfirmMessage', { name: ticket.contact.name }),
    onConfirm: resolveNow,
  });
  const settings = useSettings();
  const asksFirst = settingValue(settings.data, 'closeConfirmation') === 'enabled';

  return {
    /** The resolve confirmation: rendered once by each screen using these actions. */
    dialog: confirmResolve.dialog,
    busyId: update.isPending ? (update.variables?.ticket.id ?? null) : null,
    accept: (ticket: Ticket, then?: (updated: Ticket) => void) =>
      run(ticket, transitions.accept(me.id), (updated) => {
        then?.(updated);
        navigate(`/tickets/${updated.uuid}`);
      }),
    reopen,
    /** `leave`: the ticket is on screen, so go back to /tickets afterwards. Undoing reopens it. */
    resolve: (ticket: Ticket, leave: boolean) => (asksFirst ? confirmResolve.ask : resolveNow)({ ticket, leave }),
    returnToPending: (ticket: Ticket) => run(ticket, transitions.returnToPending(), () => navigate('/tickets')),
  };
}
