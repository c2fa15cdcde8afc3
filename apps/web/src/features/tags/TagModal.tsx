import { can, type Tag } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { DialogForm } from '../../components/DialogForm';
import { FormSwitch, FormTextField } from '../../components/FormFields';
import { formErrorHandler } from '../../components/serverFieldErrors';
import { translateValidation } from '../../i18n/validation';
import { ColorField } from '../queues/ColorField';
import { paletteSwatches } from '../queues/palette';
import { emptyTagForm, TAG_TOO_SHORT, type TagFormValues, tagBody, tagFormSchema, tagToForm } from './tagForm';
import { tagsApi } from './tagsApi';

/** Tags may share colours (they are paged, not all known here): the whole palette is offered. */
const TAG_SWATCHES = paletteSwatches([], null);

function errorText(t: TFunction, message: string | undefined): string | undefined {
  return message === TAG_TOO_SHORT ? t('tagModal.tooShort') : translateValidation(t, message);
}

function TagForm({ tag, onClose }: { tag: Tag | null; onClose: () => void }) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError } = useForm<TagFormValues>({
    resolver: zodResolver(tagFormSchema),
    defaultValues: tag ? tagToForm(tag) : emptyTagForm,
  });
  // Spec part 2 §6: the Kanban toggle is for admins (the profiles have no supervisor).
  const kanbanToggle = can(me.profile, 'drawer-admin-items:view');

  const save = useMutation({
    mutationFn: (values: TagFormValues) => {
      const body = tagBody(values);
      if (!kanbanToggle) body.kanban = tag?.kanban ?? 0;
      return tag ? tagsApi.update(tag.id, body) : tagsApi.create(body);
    },
    onSuccess: async () => {
      toast.success(t('tagModal.success'));
      await queryClient.invalidateQueries({ queryKey: queryKeys.tags.all });
      onClose();
    },
    onError: formErrorHandler(setError, { ERR_TAG_NAME_ALREADY_EXISTS: 'name' }),
  });

  return (
    <DialogForm
      onSubmit={handleSubmit((values) => save.mutate(values))}
      onCancel={onClose}
      testIdPrefix="tag-modal"
      editing={tag !== null}
      pending={save.isPending}
    >
      <DialogContent dividers>
        <Stack spacing={2}>
          <FormTextField
            control={control}
            name="name"
            label={t('tagModal.name')}
            autoFocus
            fullWidth
            testId="tag-name"
            errorText={(message) => errorText(t, message)}
          />
          <Controller
            name="color"
            control={control}
            render={({ field, fieldState }) => (
              <ColorField
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                label={t('tagModal.color')}
                swatches={TAG_SWATCHES}
                error={Boolean(fieldState.error)}
                helperText={errorText(t, fieldState.error?.message)}
                testId="tag-color"
              />
            )}
          />
          {kanbanToggle && (
            <FormSwitch control={control} name="kanban" label={t('tagModal.kanban')} testId="tag-kanban" />
          )}
        </Stack>
      </DialogContent>
    </DialogForm>
  );
}

/** Add or edit a tag. */
export function TagModal({ open, tag, onClose }: { open: boolean; tag: Tag | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="tag-modal">
      <DialogTitle>{t(tag ? 'tagModal.titleEdit' : 'tagModal.titleAdd')}</DialogTitle>
      {open && <TagForm key={tag?.id ?? 'new'} tag={tag} onClose={onClose} />}
    </Dialog>
  );
}
