import { CHAT_TITLE_REQUIRED, type Chat } from '@balcao/shared';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useSessionUser } from '../../app/AuthContext';
import { toastError } from '../../components/toastError';
import { useUserOptions } from '../tickets/ticketsApi';
import { chatsApi } from './chatsApi';

interface Option {
  id: number;
  name: string;
}

function ChatForm({
  record,
  onClose,
  onSaved,
}: {
  record: Chat | null;
  onClose: () => void;
  onSaved: (c: Chat) => void;
}) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const users = useUserOptions();
  const [title, setTitle] = useState(record?.title ?? '');
  const [selected, setSelected] = useState<Option[]>(
    record ? record.users.filter((u) => u.userId !== me.id).map((u) => ({ id: u.userId, name: u.user.name })) : [],
  );
  const [errors, setErrors] = useState<{ title?: string; users?: string }>({});
  const options: Option[] = (users.data ?? []).filter((u) => u.id !== me.id).map((u) => ({ id: u.id, name: u.name }));
  const save = useMutation({
    mutationFn: () => {
      const body = { title: title.trim(), users: selected.map((u) => ({ id: u.id })) };
      return record ? chatsApi.update(record.id, body) : chatsApi.create(body);
    },
    onSuccess: (chat) => {
      toast.success(t('chatsPage.saved'));
      onSaved(chat);
      onClose();
    },
    onError: toastError,
  });
  const submit = () => {
    const next = {
      title: title.trim() ? undefined : CHAT_TITLE_REQUIRED,
      users: selected.length ? undefined : t('chatsPage.usersRequired'),
    };
    setErrors(next);
    if (!next.title && !next.users) save.mutate();
  };
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <DialogContent dividers>
        <Stack spacing={2}>
          <TextField
            label={t('chatsPage.title')}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            error={Boolean(errors.title)}
            helperText={errors.title}
            autoFocus
            fullWidth
            slotProps={{ htmlInput: { 'data-testid': 'chat-title', maxLength: 255 } }}
          />
          <Autocomplete
            multiple
            options={options}
            value={selected}
            onChange={(_e, value) => setSelected(value)}
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            renderInput={(params) => (
              <TextField
                {...params}
                label={t('chatsPage.users')}
                error={Boolean(errors.users)}
                helperText={errors.users}
                slotProps={{
                  ...params.slotProps,
                  htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'chat-users' },
                }}
              />
            )}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" data-testid="chat-dialog-cancel">
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={save.isPending} data-testid="chat-dialog-save">
          {t('common.save')}
        </Button>
      </DialogActions>
    </form>
  );
}

/** New/edit chat (spec part 2 §5: title required, at least one user). */
export function ChatDialog({
  open,
  record,
  onClose,
  onSaved,
}: {
  open: boolean;
  record: Chat | null;
  onClose: () => void;
  onSaved: (chat: Chat) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="chat-dialog">
      <DialogTitle>{t(record ? 'chatsPage.titleEdit' : 'chatsPage.titleAdd')}</DialogTitle>
      {open && <ChatForm key={record?.id ?? 'new'} record={record} onClose={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}
