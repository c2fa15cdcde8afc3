import {
  FILE_LIST_NAME_MIN,
  FILE_LIST_NAME_TOO_SHORT,
  FILE_LIST_OPTIONS_MAX,
  FILE_OPTION_MAX_BYTES,
  type FileList,
} from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Add from '@mui/icons-material/Add';
import AttachFile from '@mui/icons-material/AttachFile';
import Delete from '@mui/icons-material/Delete';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { queryKeys } from '../../api/queryKeys';
import { DialogForm } from '../../components/DialogForm';
import { FormTextField } from '../../components/FormFields';
import { formErrorHandler } from '../../components/serverFieldErrors';
import { translateValidation } from '../../i18n/validation';
import { filesApi } from './filesApi';

/** Spec part 2 §5: name required, at least 3 characters ('Nome muito curto'); message required. */
export const fileListFormSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Obrigatório')
    .min(FILE_LIST_NAME_MIN, FILE_LIST_NAME_TOO_SHORT)
    .max(255, 'Muito longo!'),
  message: z.string().trim().min(1, 'Obrigatório').max(4000, 'Muito longo!'),
  options: z
    .array(z.object({ optionId: z.number().optional(), name: z.string().trim().min(1, 'Obrigatório').max(255) }))
    .max(FILE_LIST_OPTIONS_MAX),
});
type FormValues = z.infer<typeof fileListFormSchema>;

/** One row's file input: the picked file, or the one stored with the option. */
function OptionFile({
  index,
  picked,
  stored,
  onPick,
}: {
  index: number;
  picked: File | undefined;
  stored: string | null;
  onPick: (file: File | undefined) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
      <input
        ref={input}
        type="file"
        hidden
        data-testid={`file-option-file-${index}`}
        onChange={(event) => {
          onPick(event.target.files?.[0]);
          // Emptied so that picking the same file again still fires `change`.
          event.target.value = '';
        }}
      />
      <Button size="small" startIcon={<AttachFile />} onClick={() => input.current?.click()}>
        {picked || stored ? t('fileListModal.replace') : t('fileListModal.pick')}
      </Button>
      {picked ? (
        <Chip size="small" color="primary" label={picked.name} onDelete={() => onPick(undefined)} />
      ) : stored ? (
        <Chip size="small" label={stored} data-testid={`file-option-stored-${index}`} />
      ) : (
        <Typography variant="caption" color="text.secondary">
          {t('fileListModal.noFile')}
        </Typography>
      )}
    </Stack>
  );
}

function FileListForm({ record, onClose }: { record: FileList | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError, setValue } = useForm<FormValues>({
    resolver: zodResolver(fileListFormSchema),
    defaultValues: {
      name: record?.name ?? '',
      message: record?.message ?? '',
      options: record?.options.map((o) => ({ optionId: o.id, name: o.name })) ?? [],
    },
  });
  const rows = useFieldArray({ control, name: 'options' });
  /** Picked files by the row's field id: they go up once the list is saved. */
  const [picked, setPicked] = useState<Record<string, File>>({});
  const savedRef = useRef<FileList | null>(record);
  const stored = new Map(record?.options.map((o) => [o.id, o.fileName]) ?? []);

  const pick = (fieldId: string, file: File | undefined) => {
    if (file && file.size > FILE_OPTION_MAX_BYTES) {
      toast.error(t('fileListModal.tooLarge', { size: FILE_OPTION_MAX_BYTES / 1024 / 1024, name: file.name }));
      return;
    }
    setPicked(({ [fieldId]: _dropped, ...rest }) => (file ? { ...rest, [fieldId]: file } : rest));
  };

  const save = useMutation({
    mutationFn: async (values: FormValues) => {
      const body = {
        name: values.name.trim(),
        message: values.message,
        options: values.options.map((o) => ({ id: o.optionId, name: o.name.trim() })),
      };
      // After a failed upload the list exists: saving again updates it instead of adding another.
      const current = savedRef.current;
      const saved = current ? await filesApi.update(current.id, body) : await filesApi.create(body);
      savedRef.current = saved;
      // New rows now have ids: a retry after a failed upload renames them instead of adding them again.
      for (const [index, o] of saved.options.entries()) setValue(`options.${index}.optionId`, o.id);
      // The server keeps the rows' order, so the n-th option is the n-th row.
      const uploads = rows.fields.flatMap((field, index) => {
        const file = picked[field.id];
        const option = saved.options[index];
        return file && option ? [{ optionId: option.id, file }] : [];
      });
      return uploads.length > 0 ? filesApi.uploadList(saved, uploads) : saved;
    },
    onSuccess: async () => {
      toast.success(t('fileListModal.success'));
      await queryClient.invalidateQueries({ queryKey: queryKeys.fileLists.all });
      onClose();
    },
    onError: async (err) => {
      formErrorHandler(setError)(err);
      await queryClient.invalidateQueries({ queryKey: queryKeys.fileLists.all });
    },
  });

  const nameError = (message: string | undefined) =>
    message === FILE_LIST_NAME_TOO_SHORT ? t('fileListModal.nameTooShort') : translateValidation(t, message);

  return (
    <DialogForm
      onSubmit={handleSubmit((values) => save.mutate(values))}
      onCancel={onClose}
      testIdPrefix="file-list-modal"
      editing={record !== null}
      pending={save.isPending}
    >
      <DialogContent dividers>
        <Stack spacing={2}>
          <FormTextField
            control={control}
            name="name"
            label={t('fileListModal.name')}
            autoFocus
            fullWidth
            testId="file-list-name"
            errorText={nameError}
          />
          <FormTextField
            control={control}
            name="message"
            label={t('fileListModal.message')}
            multiline
            minRows={3}
            maxRows={8}
            fullWidth
            testId="file-list-message"
          />
          <Typography variant="subtitle2">{t('fileListModal.options')}</Typography>
          {rows.fields.map((field, index) => (
            <Stack
              key={field.id}
              direction={{ xs: 'column', sm: 'row' }}
              spacing={1}
              sx={{ alignItems: { sm: 'center' } }}
              data-testid={`file-option-row-${index}`}
            >
              <FormTextField
                control={control}
                name={`options.${index}.name`}
                label={t('fileListModal.optionName')}
                size="small"
                sx={{ flex: 1 }}
                testId={`file-option-name-${index}`}
              />
              <OptionFile
                index={index}
                picked={picked[field.id]}
                stored={field.optionId !== undefined ? (stored.get(field.optionId) ?? null) : null}
                onPick={(file) => pick(field.id, file)}
              />
              <IconButton
                aria-label={t('fileListModal.removeOption')}
                onClick={() => {
                  pick(field.id, undefined);
                  rows.remove(index);
                }}
                data-testid={`file-option-remove-${index}`}
              >
                <Delete />
              </IconButton>
            </Stack>
          ))}
          <Button
            startIcon={<Add />}
            onClick={() => rows.append({ name: '' })}
            disabled={rows.fields.length >= FILE_LIST_OPTIONS_MAX}
            sx={{ alignSelf: 'flex-start' }}
            data-testid="file-option-add"
          >
            {t('fileListModal.addOption')}
          </Button>
        </Stack>
      </DialogContent>
    </DialogForm>
  );
}

/** Add or edit a file list: name, message and its files, uploaded after the list is saved. */
export function FileListModal({
  open,
  record,
  onClose,
}: {
  open: boolean;
  record: FileList | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" data-testid="file-list-modal">
      <DialogTitle>{t(record ? 'fileListModal.titleEdit' : 'fileListModal.titleAdd')}</DialogTitle>
      {open && <FileListForm key={record?.id ?? 'new'} record={record} onClose={onClose} />}
    </Dialog>
  );
}
