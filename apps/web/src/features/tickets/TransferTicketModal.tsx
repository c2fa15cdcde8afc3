import type { Ticket } from '@balcao/shared';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSessionUser } from '../../app/AuthContext';
import { toastError } from '../../components/toastError';
import { useQueues } from '../queues/queuesApi';
import { ticketsApi, useUserOptions, useWhatsappOptions } from './ticketsApi';
import { useStoreTicket, viewerOf } from './ticketsQueries';

interface TransferTicketModalProps {
  ticket: Ticket;
  open: boolean;
  onClose: () => void;
}

/** Transfer: a queue (required), optionally a user and a connection. Without a user the ticket goes back to pending. */
export function TransferTicketModal({ ticket, open, onClose }: TransferTicketModalProps) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const navigate = useNavigate();
  const store = useStoreTicket(viewerOf(me));
  const queues = useQueues(open);
  const users = useUserOptions(open);
  const whatsapps = useWhatsappOptions(open);
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
          <TextField
            select
            required
            label={t('tickets.transfer.queue')}
            value={queueId}
            onChange={(event) => {
              setQueueId(Number(event.target.value));
              setQueueError(false);
            }}
            error={queueError}
            helperText={queueError ? t('tickets.newTicket.queueRequired') : undefined}
            data-testid="transfer-queue"
          >
            {(queues.data ?? []).map((queue) => (
              <MenuItem key={queue.id} value={queue.id} data-testid={`transfer-queue-${queue.id}`}>
                <Box
                  component="span"
                  sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: queue.color, mr: 1.5 }}
                />
                {queue.name}
              </MenuItem>
            ))}
          </TextField>
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
            {(users.data ?? []).map((user) => (
              <MenuItem key={user.id} value={user.id} data-testid={`transfer-user-${user.id}`}>
                {user.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t('tickets.transfer.connection')}
            value={whatsappId}
            onChange={(event) => setWhatsappId(event.target.value === '' ? '' : Number(event.target.value))}
            data-testid="transfer-connection"
          >
            <MenuItem value="">
              <em>{t('tickets.transfer.sameConnection')}</em>
            </MenuItem>
            {(whatsapps.data ?? []).map((w) => (
              <MenuItem key={w.id} value={w.id}>
                {w.name}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={onClose} disabled={transfer.isPending}>
          {t('common.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={submit}
          disabled={transfer.isPending}
          startIcon={transfer.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
          data-testid="transfer-submit"
        >
          {t('tickets.transfer.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
