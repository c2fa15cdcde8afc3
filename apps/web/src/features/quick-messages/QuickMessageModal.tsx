import type { QuickMessage } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import AttachFile from '@mui/icons-material/AttachFile';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { queryKeys } from '../../api/queryKeys';
import { DialogForm } from '../../components/DialogForm';
import { FormSwitch, FormTextField } from '../../components/FormFields';
import { MediaAttachment } from '../../components/MediaAttachment';
import { useMediaRecordForm } from '../../components/useMediaRecordForm';
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
  const { control, handleSubmit } = useForm<QuickMessageFormValues>({
    resolver: zodResolver(quickMessageFormSchema),
    defaultValues: record
      ? { shortcode: record.shortcode, message: record.message, geral: record.geral }
      : { shortcode: '', message: '', geral: true },
  });
  const { save, attachment } = useMediaRecordForm({
    record,
    api: quickMessagesApi,
    savedText: t('quickMessageModal.success'),
    mediaRemovedText: t('quickMessageModal.mediaRemoved'),
    refresh: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.quickMessages.all });
      await queryClient.invalidateQueries({ queryKey: queryKeys.messages.quickReplies });
    },
    onSaved: onClose,
  });

  return (
    <DialogForm
      onSubmit={handleSubmit((values) =>
        save.mutate({ shortcode: values.shortcode.trim(), message: values.message, geral: values.geral }),
      )}
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
          <MediaAttachment
            {...attachment}
            testIdPrefix="quick-message"
            icon={<AttachFile />}
            labels={{
              attach: t('quickMessageModal.attach'),
              replace: t('quickMessageModal.replaceMedia'),
              none: t('quickMessageModal.noMedia'),
            }}
          />
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
