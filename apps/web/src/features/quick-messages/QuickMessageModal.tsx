import type { QuickMessage } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import AttachFile from '@mui/icons-material/AttachFile';
import Cancel from '@mui/icons-material/Cancel';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { queryKeys } from '../../api/queryKeys';
import { DialogForm } from '../../components/DialogForm';
import { FormSwitch, FormTextField } from '../../components/FormFields';
import { toastError } from '../../components/toastError';
import { quickMessagesApi } from './quickMessagesApi';

/** Spec part 2 §5: shortcode and message required. */
export const quickMessageFormSchema = z.object({
  shortcode: z.string().trim().min(1, 'Obrigatório').max(100, 'Muito longo!'),
  message: z.string().trim().min(1, 'Obrigatório').max(4000, 'Muito longo!'),
  geral: z.boolean(),
});
type QuickMessageFormValues = z.infer<typeof quickMessageFormSchema>;

function QuickMessageForm({ record, onClose }: { record: QuickMessage | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const savedRef = useRef<QuickMessage | null>(record);
  const [pendingFile, setPendingFile] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState<string | null>(record?.mediaName ?? null);
  const { control, handleSubmit } = useForm<QuickMessageFormValues>({
    resolver: zodResolver(quickMessageFormSchema),
    defaultValues: record
      ? { shortcode: record.shortcode, message: record.message, geral: record.geral }
      : { shortcode: '', message: '', geral: true },
  });

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: queryKeys.quickMessages.all });
    await queryClient.invalidateQueries({ queryKey: queryKeys.messages.quickReplies });
  };

  const save = useMutation({
    mutationFn: async (values: QuickMessageFormValues) => {
      const body = { shortcode: values.shortcode.trim(), message: values.message, geral: values.geral };
      // After a failed upload the message exists: saving again updates it instead of adding another.
      const current = savedRef.current;
      const saved = current ? await quickMessagesApi.update(current.id, body) : await quickMessagesApi.create(body);
      savedRef.current = saved;
      return pendingFile ? quickMessagesApi.uploadMedia(saved.id, pendingFile) : saved;
    },
    onSuccess: async () => {
      toast.success(t('quickMessageModal.success'));
      await refresh();
      onClose();
    },
    onError: async (err) => {
      toastError(err);
      await refresh();
    },
  });

  const removeMedia = useMutation({
    mutationFn: () => quickMessagesApi.removeMedia(record?.id ?? 0),
    onSuccess: async () => {
      setMediaName(null);
      toast.success(t('quickMessageModal.mediaRemoved'));
      await refresh();
    },
    onError: toastError,
  });

  return (
    <DialogForm
      onSubmit={handleSubmit((values) => save.mutate(values))}
      onCancel={onClose}
      testIdPrefix="quick-message-modal"
      editing={record !== null}
      pending={save.isPending}
    >
      <DialogContent dividers>
        <Stack spacing={2}>
          <FormTextField
            control={control}
            name="shortcode"
            label={t('quickMessageModal.shortcode')}
            autoFocus
            fullWidth
            testId="quick-message-shortcode"
            helperText={t('quickMessageModal.shortcodeHelp')}
          />
          <FormTextField
            control={control}
            name="message"
            label={t('quickMessageModal.message')}
            multiline
            minRows={4}
            maxRows={10}
            fullWidth
            testId="quick-message-message"
          />
          <FormSwitch
            control={control}
            name="geral"
            label={t('quickMessageModal.geral')}
            testId="quick-message-geral"
          />
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <input
              ref={fileInput}
              type="file"
              hidden
              data-testid="quick-message-attach"
              onChange={(event) => {
                setPendingFile(event.target.files?.[0] ?? null);
                event.target.value = '';
              }}
            />
            <Button size="small" startIcon={<AttachFile />} onClick={() => fileInput.current?.click()}>
              {t(mediaName || pendingFile ? 'quickMessageModal.replaceMedia' : 'quickMessageModal.attach')}
            </Button>
            {pendingFile && (
              <Chip
                size="small"
                color="primary"
                label={pendingFile.name}
                onDelete={() => setPendingFile(null)}
                data-testid="quick-message-pending-file"
              />
            )}
            {!pendingFile && mediaName && (
              <Chip
                size="small"
                label={mediaName}
                onDelete={removeMedia.isPending ? undefined : () => removeMedia.mutate()}
                data-testid="quick-message-media-name"
                deleteIcon={<Cancel data-testid="quick-message-media-remove" />}
              />
            )}
            {!pendingFile && !mediaName && (
              <Typography variant="caption" color="text.secondary">
                {t('quickMessageModal.noMedia')}
              </Typography>
            )}
          </Stack>
        </Stack>
      </DialogContent>
    </DialogForm>
  );
}

/** Add or edit a quick message and its attachment. */
export function QuickMessageModal({
  open,
  record,
  onClose,
}: {
  open: boolean;
  record: QuickMessage | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="quick-message-modal">
      <DialogTitle>{t(record ? 'quickMessageModal.titleEdit' : 'quickMessageModal.titleAdd')}</DialogTitle>
      {open && <QuickMessageForm key={record?.id ?? 'new'} record={record} onClose={onClose} />}
    </Dialog>
  );
}
