import { type ContactListItem, msg, NUMBER_LENGTH, nameField, requiredString } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { queryKeys } from '../../api/queryKeys';
import { DialogForm } from '../../components/DialogForm';
import { FormTextField } from '../../components/FormFields';
import { formErrorHandler } from '../../components/serverFieldErrors';
import { contactListItemsApi } from './contactListsApi';

/** Spec part 2 §5: name 2 to 50, number 8 to 50, e-mail valid when given ('E-mail inválido'). */
export const contactListItemFormSchema = z.object({
  name: nameField(),
  number: requiredString().min(NUMBER_LENGTH.min, msg.tooShort).max(NUMBER_LENGTH.max, msg.tooLong),
  email: z.union([
    z.literal(''),
    z
      .string()
      .trim()
      .pipe(z.email({ error: msg.invalidEmail })),
  ]),
});
type FormValues = z.infer<typeof contactListItemFormSchema>;

function ContactListItemForm({
  contactListId,
  record,
  onClose,
}: {
  contactListId: number;
  record: ContactListItem | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError } = useForm<FormValues>({
    resolver: zodResolver(contactListItemFormSchema),
    defaultValues: { name: record?.name ?? '', number: record?.number ?? '', email: record?.email ?? '' },
  });
  const save = useMutation({
    mutationFn: (values: FormValues) =>
      record ? contactListItemsApi.update(record.id, values) : contactListItemsApi.create(contactListId, values),
    onSuccess: async () => {
      toast.success(t('contactListItemModal.success'));
      await queryClient.invalidateQueries({ queryKey: queryKeys.contactListItems.of(contactListId) });
      onClose();
    },
    onError: formErrorHandler(setError, { ERR_DUPLICATED_CONTACT: 'number' }),
  });

  return (
    <DialogForm
      onSubmit={handleSubmit((values) => save.mutate(values))}
      onCancel={onClose}
      testIdPrefix="contact-list-item-modal"
      editing={record !== null}
      pending={save.isPending}
    >
      <DialogContent dividers>
        <Stack spacing={2}>
          <FormTextField
            control={control}
            name="name"
            label={t('contactListItemModal.name')}
            autoFocus
            fullWidth
            testId="contact-list-item-name"
          />
          <FormTextField
            control={control}
            name="number"
            label={t('contactListItemModal.number')}
            fullWidth
            testId="contact-list-item-number"
            htmlInput={{ inputMode: 'tel' }}
            helperText={t('contactListItemModal.numberHelp')}
          />
          <FormTextField
            control={control}
            name="email"
            label={t('contactListItemModal.email')}
            type="email"
            fullWidth
            testId="contact-list-item-email"
          />
        </Stack>
      </DialogContent>
    </DialogForm>
  );
}

/** Add or edit a contact of a list. */
export function ContactListItemModal({
  open,
  contactListId,
  record,
  onClose,
}: {
  open: boolean;
  contactListId: number;
  record: ContactListItem | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="contact-list-item-modal">
      <DialogTitle>{t(record ? 'contactListItemModal.titleEdit' : 'contactListItemModal.titleAdd')}</DialogTitle>
      {open && (
        <ContactListItemForm
          key={record?.id ?? 'new'}
          contactListId={contactListId}
          record={record}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}
