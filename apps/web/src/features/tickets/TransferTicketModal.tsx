import type { Ticket } from '@balcao/shared';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useSessionUser } from '../../app/AuthContext';
import { ModalActions } from '../../components/ModalActions';
import { QueueSelect } from '../../components/QueueSelect';
import { toastError } from '../../components/toastError';
import { useQueues } from '../queues/queuesApi';
import { ConnectionSelect } from './ConnectionSelect';
import { ticketsApi, type UserOption, useUserOptions } from './ticketsApi';
import { useStoreTicket, viewerOf } from './ticketsQueries';

interface TransferTicketModalProps {
  ticket: Ticket;
  open: boolean;
  onClose: () => void;
}

/** The users a ticket can be given to in a queue: its members only. */
export const usersOfQueue = (users: UserOption[], queueId: number | '') =>
  queueId === '' ? [] : users.filter((user) => user.queueIds.includes(queueId));

/** Transfer: a queue (required), optionally a user and a connection. Without a user the ticket goes back to pending. */
export function TransferTicketModal({ ticket, open, onClose }: TransferTicketModalProps) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const navigate = useNavigate();
  const store = useStoreTicket(viewerOf(me));
  const queues = useQueues(open);
  const users = useUserOptions(open);
  const [queueId, setQueueId] = useState<number | ''>('');
  const [userId, setUserId] = useState<number | ''>('');
  const [whatsappId, setWhatsappId] = useState<number | ''>('');
  const [queueError, setQueueError] = useState(false);

  useEffect(() => {
    if (!open) return;
    setQueueId('');
    setUserId('');
    setWhatsappId('');
    setQueueError(false);
  }, [open]);

  const transfer = useMutation({
    mutationFn: () =>
      ticketsApi.update(ticket.id, {
        queueId: queueId === '' ? null : queueId,
        ...(userId === '' ? {} : { userId }),
        ...(whatsappId === '' ? {} : { whatsappId }),
      }),
    onSuccess: (updated) => {
      store(updated);
      const to = [updated.user?.name, updated.queue?.name].filter(Boolean).join(' · ');
      toast.success(t('tickets.transfer.done', { to }), { toastId: `transfer-${updated.id}` });
      onClose();
      navigate('/tickets');
    },
    onError: toastError,
  });

  function submit() {
    if (queueId === '') {
      setQueueError(true);
      return;
    }
    transfer.mutate();
  }

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="transfer-modal">
      <DialogTitle>{t('tickets.transfer.title')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <QueueSelect
            queues={queues.data ?? []}
            value={queueId}
            onChange={(value) => {
              setQueueId(value);
              setQueueError(false);
              // A user chosen for another queue is not offered any more.
              setUserId((current) =>
                usersOfQueue(users.data ?? [], value).some((user) => user.id === current) ? current : '',
              );
            }}
            label={t('tickets.transfer.queue')}
            testId="transfer-queue"
            optionTestId="transfer-queue"
            required
            error={queueError}
            helperText={queueError ? t('tickets.newTicket.queueRequired') : undefined}
          />
          <TextField
            select
            label={t('tickets.transfer.user')}
            value={userId}
            onChange={(event) => setUserId(event.target.value === '' ? '' : Number(event.target.value))}
            helperText={t('tickets.transfer.userHelp')}
            data-testid="transfer-user"
          >
            <MenuItem value="">
              <em>{t('tickets.transfer.noUser')}</em>
            </MenuItem>
            {usersOfQueue(users.data ?? [], queueId).map((user) => (
              <MenuItem key={user.id} value={user.id} data-testid={`transfer-user-${user.id}`}>
                {user.name}
              </MenuItem>
            ))}
          </TextField>
          <ConnectionSelect
            enabled={open}
            value={whatsappId}
            onChange={setWhatsappId}
            label={t('tickets.transfer.connection')}
            emptyLabel={t('tickets.transfer.sameConnection')}
            testId="transfer-connection"
          />
        </Stack>
      </DialogContent>
      <ModalActions
        onCancel={onClose}
        submitLabel={t('tickets.transfer.submit')}
        submitTestId="transfer-submit"
        pending={transfer.isPending}
        onSubmit={submit}
      />
    </Dialog>
  );
}
