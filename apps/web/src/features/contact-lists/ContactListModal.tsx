import { type ContactList, nameField } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { queryKeys } from '../../api/queryKeys';
import { DialogForm } from '../../components/DialogForm';
import { FormTextField } from '../../components/FormFields';
import { formErrorHandler } from '../../components/serverFieldErrors';
import { contactListsApi } from './contactListsApi';

/** Spec part 2 §5: name required, 2 to 50. */
export const contactListFormSchema = z.object({ name: nameField() });
type FormValues = z.infer<typeof contactListFormSchema>;

function ContactListForm({ record, onClose }: { record: ContactList | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError } = useForm<FormValues>({
    resolver: zodResolver(contactListFormSchema),
    defaultValues: { name: record?.name ?? '' },
  });
  const save = useMutation({
    mutationFn: (values: FormValues) =>
      record ? contactListsApi.update(record.id, values) : contactListsApi.create(values),
    onSuccess: async () => {
      toast.success(t('contactListModal.success'));
      await queryClient.invalidateQueries({ queryKey: queryKeys.contactLists.all });
      onClose();
    },
    onError: formErrorHandler(setError),
  });

  return (
    <DialogForm
      onSubmit={handleSubmit((values) => save.mutate(values))}
      onCancel={onClose}
      testIdPrefix="contact-list-modal"
      editing={record !== null}
      pending={save.isPending}
    >
      <DialogContent dividers>
        <FormTextField
          control={control}
          name="name"
          label={t('contactListModal.name')}
          autoFocus
          fullWidth
          testId="contact-list-name"
        />
      </DialogContent>
    </DialogForm>
  );
}

/** Add or rename a contact list. */
export function ContactListModal({
  open,
  record,
  onClose,
}: {
  open: boolean;
  record: ContactList | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="contact-list-modal">
      <DialogTitle>{t(record ? 'contactListModal.titleEdit' : 'contactListModal.titleAdd')}</DialogTitle>
      {open && <ContactListForm key={record?.id ?? 'new'} record={record} onClose={onClose} />}
    </Dialog>
  );
}
