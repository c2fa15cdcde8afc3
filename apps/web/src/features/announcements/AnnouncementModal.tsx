import {
  ANNOUNCEMENT_MEDIA_ACCEPT,
  ANNOUNCEMENT_MEDIA_MAX_BYTES,
  ANNOUNCEMENT_PRIORITIES,
  ANNOUNCEMENT_TEXT_MAX,
  ANNOUNCEMENT_TITLE_MAX,
  type Announcement,
} from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { queryKeys } from '../../api/queryKeys';
import { DialogForm } from '../../components/DialogForm';
import { FormSwitch, FormTextField } from '../../components/FormFields';
import { MediaAttachment } from '../../components/MediaAttachment';
import { useMediaRecordForm } from '../../components/useMediaRecordForm';
import { announcementsApi } from './announcementsApi';

/** Spec part 2 §5: title and text required ('Obrigatório'). */
export const announcementFormSchema = z.object({
  title: z.string().trim().min(1, 'Obrigatório').max(ANNOUNCEMENT_TITLE_MAX, 'Muito longo!'),
  text: z.string().trim().min(1, 'Obrigatório').max(ANNOUNCEMENT_TEXT_MAX, 'Muito longo!'),
  priority: z.number(),
  status: z.boolean(),
});
type AnnouncementFormValues = z.infer<typeof announcementFormSchema>;

function AnnouncementForm({ record, onClose }: { record: Announcement | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { control, handleSubmit } = useForm<AnnouncementFormValues>({
    resolver: zodResolver(announcementFormSchema),
    defaultValues: record
      ? { title: record.title, text: record.text, priority: record.priority, status: record.status }
      : { title: '', text: '', priority: 3, status: true },
  });
  const { save, attachment } = useMediaRecordForm({
    record,
    api: announcementsApi,
    savedText: t('announcements.modal.success'),
    mediaRemovedText: t('announcements.modal.mediaRemoved'),
    refresh: () => queryClient.invalidateQueries({ queryKey: queryKeys.announcements.all }),
    onSaved: onClose,
    fileTypes: { accept: ANNOUNCEMENT_MEDIA_ACCEPT, error: t('announcements.modal.mediaTypes') },
    maxFileSize: {
      bytes: ANNOUNCEMENT_MEDIA_MAX_BYTES,
      error: t('announcements.modal.mediaTooLarge', { size: ANNOUNCEMENT_MEDIA_MAX_BYTES / 1024 / 1024 }),
    },
  });

  return (
    <DialogForm
      onSubmit={handleSubmit((values) => save.mutate(values))}
      onCancel={onClose}
      testIdPrefix="announcement-modal"
      editing={record !== null}
      pending={save.isPending}
    >
      <DialogContent dividers>
        <Stack spacing={2}>
          <FormTextField
            control={control}
            name="title"
            label={t('announcements.modal.title')}
            autoFocus
            fullWidth
            testId="announcement-title"
          />
          <FormTextField
            control={control}
            name="text"
            label={t('announcements.modal.text')}
            multiline
            minRows={4}
            maxRows={12}
            fullWidth
            testId="announcement-text"
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <Controller
              name="priority"
              control={control}
              render={({ field }) => (
                <TextField
                  {...field}
                  select
                  label={t('announcements.modal.priority')}
                  sx={{ minWidth: 180 }}
                  onChange={(event) => field.onChange(Number(event.target.value))}
                  data-testid="announcement-priority"
                >
                  {ANNOUNCEMENT_PRIORITIES.map((priority) => (
                    <MenuItem key={priority} value={priority} data-testid={`announcement-priority-option-${priority}`}>
                      {t(`announcements.priority.${priority}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <FormSwitch
              control={control}
              name="status"
              label={t('announcements.active')}
              testId="announcement-status"
            />
          </Stack>
          <MediaAttachment
            {...attachment}
            testIdPrefix="announcement"
            accept={ANNOUNCEMENT_MEDIA_ACCEPT}
            icon={<ImageOutlined />}
            labels={{
              attach: t('announcements.modal.attach'),
              replace: t('announcements.modal.replaceMedia'),
              none: t('announcements.noMedia'),
            }}
          />
        </Stack>
      </DialogContent>
    </DialogForm>
  );
}

/** Add or edit an announcement and its image (spec part 2 §2, "Announcements"). */
export function AnnouncementModal({
  open,
  record,
  onClose,
}: {
  open: boolean;
  record: Announcement | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="announcement-modal">
      <DialogTitle>{t(record ? 'announcements.modal.titleEdit' : 'announcements.modal.titleAdd')}</DialogTitle>
      {open && <AnnouncementForm key={record?.id ?? 'new'} record={record} onClose={onClose} />}
    </Dialog>
  );
}
