import type { Contact } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { DialogForm } from '../../components/DialogForm';
import { FormTextField } from '../../components/FormFields';
import { formErrorHandler } from '../../components/serverFieldErrors';
import { type ContactFormValues, contactBody, contactFormSchema, contactToForm, emptyContactForm } from './contactForm';
import { contactsApi } from './contactsApi';

interface ContactModalProps {
  open: boolean;
  /** The contact to edit; null adds a new one. */
  contactId: number | null;
  onClose: () => void;
  /** Called with the saved contact. */
  onSaved?: (contact: Contact) => void;
}

function ContactForm({
  contact,
  onClose,
  onSaved,
}: {
  contact: Contact | null;
  onClose: () => void;
  onSaved?: (contact: Contact) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError } = useForm<ContactFormValues>({
    resolver: zodResolver(contactFormSchema),
    defaultValues: contact ? contactToForm(contact) : emptyContactForm,
  });
  const extraInfo = useFieldArray({ control, name: 'extraInfo' });

  const save = useMutation({
    mutationFn: (values: ContactFormValues) =>
      contact ? contactsApi.update(contact.id, contactBody(values)) : contactsApi.create(contactBody(values)),
    onSuccess: async (saved) => {
      toast.success(t('contactModal.success'));
      queryClient.setQueryData(queryKeys.contacts.detail(saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: queryKeys.contacts.lists });
      onSaved?.(saved);
      onClose();
    },
    onError: formErrorHandler(setError, { ERR_DUPLICATED_CONTACT: 'number' }),
  });

  return (
    <DialogForm
      onSubmit={handleSubmit((values) => save.mutate(values))}
      onCancel={onClose}
      testIdPrefix="contact-modal"
      editing={contact !== null}
      pending={save.isPending}
    >
      <DialogContent dividers>
        <Stack spacing={2}>
          <Typography variant="subtitle2" color="text.secondary">
            {t('contactModal.mainInfo')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField
              control={control}
              name="name"
              label={t('contactModal.name')}
              autoFocus
              fullWidth
              testId="contact-name"
            />
            <FormTextField
              control={control}
              name="number"
              label={t('contactModal.number')}
              placeholder="5513912344321"
              fullWidth
              testId="contact-number"
              htmlInput={{ inputMode: 'tel' }}
            />
          </Stack>
          <FormTextField
            control={control}
            name="email"
            label={t('contactModal.email')}
            type="email"
            placeholder={t('contactModal.emailPlaceholder')}
            fullWidth
            testId="contact-email"
          />
          <Divider />
          <Typography variant="subtitle2" color="text.secondary">
            {t('contactModal.extraInfo')}
          </Typography>
          {extraInfo.fields.map((item, index) => (
            <Stack
              key={item.id}
              direction="row"
              spacing={1.5}
              sx={{ alignItems: 'flex-start' }}
              data-testid={`contact-extra-${index}`}
            >
              <FormTextField
                control={control}
                name={`extraInfo.${index}.name`}
                size="small"
                label={t('contactModal.extraName')}
                fullWidth
                testId={`contact-extra-name-${index}`}
              />
              <FormTextField
                control={control}
                name={`extraInfo.${index}.value`}
                size="small"
                label={t('contactModal.extraValue')}
                fullWidth
                testId={`contact-extra-value-${index}`}
              />
              <IconButton
                onClick={() => extraInfo.remove(index)}
                aria-label={t('common.delete')}
                data-testid={`contact-extra-remove-${index}`}
              >
                <DeleteOutline fontSize="small" />
              </IconButton>
            </Stack>
          ))}
          <Box>
            <Button
              size="small"
              startIcon={<Add />}
              onClick={() => extraInfo.append({ name: '', value: '' })}
              data-testid="contact-extra-add"
            >
              {t('contactModal.addExtraInfo')}
            </Button>
          </Box>
        </Stack>
      </DialogContent>
    </DialogForm>
  );
}

/** Add or edit a contact with its extra information (name/value pairs). */
export function ContactModal({ open, contactId, onClose, onSaved }: ContactModalProps) {
  const { t } = useTranslation();
  const existing = useQuery({
    queryKey: queryKeys.contacts.detail(contactId ?? 0),
    queryFn: () => contactsApi.show(contactId ?? 0),
    enabled: open && contactId !== null,
  });
  const loading = contactId !== null && existing.isPending;
  const failed = contactId !== null && !existing.data && existing.isError;

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="contact-modal">
      <DialogTitle>{t(contactId === null ? 'contactModal.titleAdd' : 'contactModal.titleEdit')}</DialogTitle>
      {open &&
        (loading || failed ? (
          <DialogContent dividers>
            <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
              {failed ? <Typography color="error">{t('errors.generic')}</Typography> : <CircularProgress />}
            </Box>
          </DialogContent>
        ) : (
          <ContactForm
            key={contactId ?? 'new'}
            contact={contactId === null ? null : (existing.data ?? null)}
            onClose={onClose}
            onSaved={onSaved}
          />
        ))}
    </Dialog>
  );
}
