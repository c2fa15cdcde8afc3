import { contactInput } from '@balcao/shared';
import AddCircleOutline from '@mui/icons-material/AddCircleOutlineOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutlineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { ModalActions } from '../../components/ModalActions';
import { toastError } from '../../components/toastError';
import { fieldErrors } from '../../i18n/validation';
import { contactsApi } from './ticketsApi';
import { applyContactUpdate, withContact } from './ticketsCache';
import { isTicket, patchTicketLists, type TicketLookup } from './ticketsQueries';

interface FormValues {
  name: string;
  number: string;
  email: string;
  extraInfo: { key: number; name: string; value: string }[];
}

type Errors = Partial<Record<'name' | 'number' | 'email', string>>;

let nextKey = 1;

/** Edit a contact: name, number, e-mail and the extra information list. */
export function ContactEditModal({
  contactId,
  open,
  onClose,
}: {
  contactId: number;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const contact = useQuery({
    queryKey: queryKeys.tickets.contact(contactId),
    queryFn: () => contactsApi.show(contactId),
    enabled: open,
  });
  const [values, setValues] = useState<FormValues>({ name: '', number: '', email: '', extraInfo: [] });
  const [errors, setErrors] = useState<Errors>({});

  useEffect(() => {
    if (!open || !contact.data) return;
    const { name, number, email, extraInfo } = contact.data;
    setValues({
      name,
      number,
      email,
      extraInfo: (extraInfo ?? []).map((info) => ({ key: nextKey++, name: info.name, value: info.value })),
    });
    setErrors({});
  }, [open, contact.data]);

  const save = useMutation({
    mutationFn: (body: Parameters<typeof contactsApi.update>[1]) => contactsApi.update(contactId, body),
    onSuccess: (saved) => {
      toast.success(t('tickets.contact.saved'));
      queryClient.setQueryData(queryKeys.tickets.contact(contactId), saved);
      patchTicketLists(queryClient, (data) => applyContactUpdate(data, saved));
      queryClient.setQueriesData<TicketLookup>({ queryKey: queryKeys.tickets.details }, (lookup) =>
        isTicket(lookup) && lookup.contactId === contactId ? withContact(lookup, saved) : lookup,
      );
      void queryClient.invalidateQueries({ queryKey: ['contacts'] });
      onClose();
    },
    onError: toastError,
  });

  function submit() {
    const parsed = contactInput.safeParse({
      name: values.name,
      number: values.number,
      email: values.email,
      extraInfo: values.extraInfo
        .filter((info) => info.name.trim() || info.value.trim())
        .map(({ name, value }) => ({ name, value })),
    });
    if (!parsed.success) {
      setErrors(fieldErrors(t, parsed.error.issues, ['name', 'number', 'email']));
      return;
    }
    save.mutate(parsed.data);
  }

  const setInfo = (key: number, change: Partial<FormValues['extraInfo'][number]>) =>
    setValues((v) => ({ ...v, extraInfo: v.extraInfo.map((i) => (i.key === key ? { ...i, ...change } : i)) }));

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="contact-edit-modal">
      <DialogTitle>{t('tickets.contact.editTitle')}</DialogTitle>
      <DialogContent dividers>
        {contact.isPending ? (
          <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
            <CircularProgress />
          </Box>
        ) : (
          <Stack spacing={2}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextField
                label={t('tickets.contact.name')}
                value={values.name}
                onChange={(event) => setValues((v) => ({ ...v, name: event.target.value }))}
                error={Boolean(errors.name)}
                helperText={errors.name}
                fullWidth
                slotProps={{ htmlInput: { 'data-testid': 'contact-name' } }}
              />
              <TextField
                label={t('tickets.contact.number')}
                value={values.number}
                onChange={(event) => setValues((v) => ({ ...v, number: event.target.value }))}
                error={Boolean(errors.number)}
                helperText={errors.number}
                fullWidth
                slotProps={{ htmlInput: { 'data-testid': 'contact-number' } }}
              />
            </Stack>
            <TextField
              label={t('tickets.contact.email')}
              value={values.email}
              onChange={(event) => setValues((v) => ({ ...v, email: event.target.value }))}
              error={Boolean(errors.email)}
              helperText={errors.email}
              slotProps={{ htmlInput: { 'data-testid': 'contact-email' } }}
            />
            <Typography variant="subtitle2">{t('tickets.contact.extraInfo')}</Typography>
            {values.extraInfo.map((info) => (
              <Stack key={info.key} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <TextField
                  size="small"
                  label={t('tickets.contact.extraName')}
                  value={info.name}
                  onChange={(event) => setInfo(info.key, { name: event.target.value })}
                  sx={{ flex: 1 }}
                />
                <TextField
                  size="small"
                  label={t('tickets.contact.extraValue')}
                  value={info.value}
                  onChange={(event) => setInfo(info.key, { value: event.target.value })}
                  sx={{ flex: 2 }}
                />
                <IconButton
                  aria-label={t('common.delete')}
                  onClick={() => setValues((v) => ({ ...v, extraInfo: v.extraInfo.filter((i) => i.key !== info.key) }))}
                >
                  <DeleteOutline fontSize="small" />
                </IconButton>
              </Stack>
            ))}
            <Box>
              <Button
                size="small"
                startIcon={<AddCircleOutline />}
                onClick={() =>
                  setValues((v) => ({ ...v, extraInfo: [...v.extraInfo, { key: nextKey++, name: '', value: '' }] }))
                }
                data-testid="contact-add-extra"
              >
                {t('tickets.contact.addExtra')}
              </Button>
            </Box>
          </Stack>
        )}
      </DialogContent>
      <ModalActions
        onCancel={onClose}
        submitLabel={t('common.save')}
        submitTestId="contact-save"
        pending={save.isPending}
        disabled={contact.isPending}
        onSubmit={submit}
      />
    </Dialog>
  );
}
