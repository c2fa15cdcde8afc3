import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { toastError } from '../../components/toastError';
import { formatDate, formatTime } from './format';
import { notesApi } from './ticketsApi';

export const NOTE_MIN_LENGTH = 2;

/** Notes about the contact taken in this ticket: list, add (at least 2 characters) and delete. */
export function TicketNotes({ ticketId, contactId }: { ticketId: number; contactId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = queryKeys.tickets.notes(contactId, ticketId);
  const notes = useQuery({ queryKey: key, queryFn: () => notesApi.list(contactId, ticketId) });
  const [note, setNote] = useState('');
  const [error, setError] = useState(false);

  const add = useMutation({
    mutationFn: () => notesApi.create({ note: note.trim(), ticketId, contactId }),
    onSuccess: () => {
      toast.success(t('tickets.notes.added'));
      setNote('');
      void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: toastError,
  });
  const remove = useMutation({
    mutationFn: (id: number) => notesApi.remove(id),
    onSuccess: () => {
      toast.success(t('tickets.notes.deleted'));
      void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: toastError,
  });

  function submit() {
    if (note.trim().length < NOTE_MIN_LENGTH) {
      setError(true);
      return;
    }
    add.mutate();
  }

  return (
    <Stack spacing={1} data-testid="ticket-notes">
      <TextField
        multiline
        minRows={2}
        maxRows={6}
        size="small"
        placeholder={t('tickets.notes.placeholder')}
        value={note}
        onChange={(event) => {
          setNote(event.target.value);
          setError(false);
        }}
        error={error}
        helperText={error ? t('validation.tooShort') : undefined}
        slotProps={{ htmlInput: { 'data-testid': 'note-input' } }}
      />
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button color="inherit" size="small" onClick={() => setNote('')} disabled={!note}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" size="small" onClick={submit} disabled={add.isPending} data-testid="note-save">
          {t('common.save')}
        </Button>
      </Stack>
      <List dense disablePadding>
        {(notes.data ?? []).map((item) => (
          <ListItem
            key={item.id}
            divider
            disableGutters
            data-testid={`note-${item.id}`}
            secondaryAction={
              <Tooltip title={t('common.delete')}>
                <IconButton
                  edge="end"
                  size="small"
                  onClick={() => remove.mutate(item.id)}
                  data-testid={`note-delete-${item.id}`}
                >
                  <DeleteOutline fontSize="small" />
                </IconButton>
              </Tooltip>
            }
          >
            <ListItemText
              primary={<Typography sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{item.note}</Typography>}
              secondary={`${item.user?.name ?? ''} · ${formatDate(item.createdAt)} ${formatTime(item.createdAt)}`}
            />
          </ListItem>
        ))}
        {notes.isSuccess && notes.data.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
            {t('tickets.notes.empty')}
          </Typography>
        )}
      </List>
    </Stack>
  );
}
