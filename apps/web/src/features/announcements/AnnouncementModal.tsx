import {
  ANNOUNCEMENT_MEDIA_ACCEPT,
  ANNOUNCEMENT_MEDIA_MAX_BYTES,
  ANNOUNCEMENT_PRIORITIES,
  ANNOUNCEMENT_TEXT_MAX,
  ANNOUNCEMENT_TITLE_MAX,
  type Announcement,
} from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Cancel from '@mui/icons-material/Cancel';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { queryKeys } from '../../api/queryKeys';
import { DialogForm } from '../../components/DialogForm';
import { FormSwitch, FormTextField } from '../../components/FormFields';
import { toastError } from '../../components/toastError';
import { announcementsApi } from './announcementsApi';

/** Spec part 2 §5: title and text required ('Obrigatório'). */
export const announcementFormSchema = z.object({
  title: z.string().trim().min(1, 'Obrigatório').max(ANNOUNCEMENT_TITLE_MAX, 'Muito longo!'),
  text: z.string().trim().min(1, 'Obrigatório').max(ANNOUNCEMENT_TEXT_MAX, 'Muito longo!'),
  priority: z.number(),
  status: z.boolean(),
});
type AnnouncementFormValues = z.infer<typeof announcementFormSchema>;

const ACCEPTED = ANNOUNCEMENT_MEDIA_ACCEPT.split(',');
const isAccepted = (file: File) => ACCEPTED.some((ext) => file.name.toLowerCase().endsWith(ext));

function AnnouncementForm({ record, onClose }: { record: Announcement | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const savedRef = useRef<Announcement | null>(record);
  const [pendingFile, setPendingFile] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState<string | null>(record?.mediaName ?? null);
  const { control, handleSubmit } = useForm<AnnouncementFormValues>({
    resolver: zodResolver(announcementFormSchema),
    defaultValues: record
      ? { title: record.title, text: record.text, priority: record.priority, status: record.status }
      : { title: '', text: '', priority: 3, status: true },
  });

  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.announcements.all });

  const save = useMutation({
    mutationFn: async (values: AnnouncementFormValues) => {
      // After a failed upload the announcement exists: saving again updates it instead of adding another.
      const current = savedRef.current;
      const saved = current ? await announcementsApi.update(current.id, values) : await announcementsApi.create(values);
      savedRef.current = saved;
      return pendingFile ? announcementsApi.uploadMedia(saved.id, pendingFile) : saved;
    },
    onSuccess: async () => {
      toast.success(t('announcements.modal.success'));
      await refresh();
      onClose();
    },
    onError: async (err) => {
      toastError(err);
      await refresh();
    },
  });

  const removeMedia = useMutation({
    mutationFn: () => announcementsApi.removeMedia(record?.id ?? 0),
    onSuccess: async () => {
      setMediaName(null);
      toast.success(t('announcements.modal.mediaRemoved'));
      await refresh();
    },
    onError: toastError,
  });

  const pick = (file: File | undefined) => {
    if (!file) return;
    if (!isAccepted(file)) {
      toast.error(t('announcements.modal.mediaTypes'));
      return;
    }
    if (file.size > ANNOUNCEMENT_MEDIA_MAX_BYTES) {
      toast.error(t('announcements.modal.mediaTooLarge', { size: ANNOUNCEMENT_MEDIA_MAX_BYTES / 1024 / 1024 }));
      return;
    }
    setPendingFile(file);
  };

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
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
            <input
              ref={fileInput}
              type="file"
              accept={ANNOUNCEMENT_MEDIA_ACCEPT}
              hidden
              data-testid="announcement-attach"
              onChange={(event) => {
                pick(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
            <Button size="small" startIcon={<ImageOutlined />} onClick={() => fileInput.current?.click()}>
              {t(mediaName || pendingFile ? 'announcements.modal.replaceMedia' : 'announcements.modal.attach')}
            </Button>
            {pendingFile && (
              <Chip
                size="small"
                color="primary"
                label={pendingFile.name}
                onDelete={() => setPendingFile(null)}
                data-testid="announcement-pending-file"
              />
            )}
            {!pendingFile && mediaName && (
              <Chip
                size="small"
                label={mediaName}
                onDelete={removeMedia.isPending ? undefined : () => removeMedia.mutate()}
                data-testid="announcement-media-name"
                deleteIcon={<Cancel data-testid="announcement-media-remove" />}
              />
            )}
            {!pendingFile && !mediaName && (
              <Typography variant="caption" color="text.secondary">
                {t('announcements.noMedia')}
              </Typography>
            )}
          </Stack>
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
