import type { FileList, Message, Ticket } from '@balcao/shared';
import FolderOpen from '@mui/icons-material/FolderOpenOutlined';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModalActions } from '../../components/ModalActions';
import { toastError } from '../../components/toastError';
import { useAllFileLists } from '../files/filesApi';
import { messagesApi } from './messagesApi';

interface FileListPickerProps {
  ticket: Ticket;
  open: boolean;
  onClose: () => void;
  /** The messages the server stored (the list's message, then its files). */
  onSent: (created: Message[]) => void;
}

/** How many files of a list can be sent: its options with an uploaded file. */
const fileCountOf = (list: FileList) => list.options.filter((o) => o.path !== null).length;

/**
 * The message input's "send a file list": the company's file lists (spec part 2 §7 "Files"); the chosen
 * one's message and files go into the ticket as the agent's messages. Lists without files are shown
 * but cannot be chosen.
 */
export function FileListPicker({ ticket, open, onClose, onSent }: FileListPickerProps) {
  const { t } = useTranslation();
  const lists = useAllFileLists(open);
  const [chosen, setChosen] = useState<number | null>(null);

  useEffect(() => {
    if (open) setChosen(null);
  }, [open]);

  const send = useMutation({
    mutationFn: (fileListId: number) => messagesApi.sendFileList(ticket.id, fileListId),
    onSuccess: (created) => {
      onSent(created);
      onClose();
    },
    onError: toastError,
  });

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="file-list-picker">
      <DialogTitle>{t('messages.fileList.title')}</DialogTitle>
      <DialogContent dividers sx={{ p: 0 }}>
        {lists.isPending ? (
          <CircularProgress size={24} sx={{ display: 'block', mx: 'auto', my: 3 }} />
        ) : (lists.data ?? []).length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }} data-testid="file-list-picker-empty">
            {t('messages.fileList.empty')}
          </Typography>
        ) : (
          <List dense disablePadding>
            {(lists.data ?? []).map((list) => {
              const count = fileCountOf(list);
              return (
                <ListItemButton
                  key={list.id}
                  selected={chosen === list.id}
                  disabled={count === 0}
                  onClick={() => setChosen(list.id)}
                  data-testid={`file-list-option-${list.id}`}
                >
                  <ListItemIcon>
                    <FolderOpen />
                  </ListItemIcon>
                  <ListItemText
                    primary={list.name}
                    secondary={count === 0 ? t('messages.fileList.noFiles') : t('messages.fileList.files', { count })}
                  />
                </ListItemButton>
              );
            })}
          </List>
        )}
      </DialogContent>
      <ModalActions
        onCancel={onClose}
        submitLabel={t('messages.fileList.send')}
        submitTestId="file-list-send"
        pending={send.isPending}
        disabled={chosen === null}
        onSubmit={() => chosen !== null && send.mutate(chosen)}
      />
    </Dialog>
  );
}
