import { type Contact, can, contactInput, type OtherOpenTicketBody, SEARCH_MIN_CHARS } from '@balcao/shared';
import PersonAdd from '@mui/icons-material/PersonAdd';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { ApiError } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { ModalActions } from '../../components/ModalActions';
import { QueueSelect } from '../../components/QueueSelect';
import { toastError } from '../../components/toastError';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { fieldErrors } from '../../i18n/validation';
import { useQueues } from '../queues/queuesApi';
import { ConnectionSelect } from './ConnectionSelect';
import { contactsApi, ticketsApi } from './ticketsApi';
import { useStoreTicket, viewerOf } from './ticketsQueries';

type ContactOption = { kind: 'contact'; contact: Contact } | { kind: 'add'; name: string };

/** What to do with an ERR_OTHER_OPEN_TICKET reply (spec §4). */
export function otherOpenTicketOutcome(
  err: unknown,
  userId: number,
): { open: string } | { notice: { user: string | null; queue: string | null } } | null {
  if (!(err instanceof ApiError) || err.code !== 'ERR_OTHER_OPEN_TICKET') return null;
  const body = err.body as Partial<OtherOpenTicketBody>;
  if (body.userId === userId && body.ticketUuid) return { open: body.ticketUuid };
  return { notice: { user: body.userName ?? null, queue: body.queueName ?? null } };
}

function AddContactDialog({
  name,
  onClose,
  onCreated,
}: {
  name: string | null;
  onClose: () => void;
  onCreated: (contact: Contact) => void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState({ name: '', number: '' });
  const [errors, setErrors] = useState<{ name?: string; number?: string }>({});
  useEffect(() => {
    if (name !== null) {
      setValues({ name, number: '' });
      setErrors({});
    }
  }, [name]);

  const create = useMutation({
    mutationFn: contactsApi.create,
    onSuccess: (contact) => {
      onCreated(contact);
      onClose();
    },
    onError: toastError,
  });

  function submit() {
    const parsed = contactInput.safeParse({ ...values, email: '' });
    if (!parsed.success) {
      setErrors(fieldErrors(t, parsed.error.issues, ['name', 'number']));
      return;
    }
    create.mutate(parsed.data);
  }

  return (
    <Dialog open={name !== null} onClose={onClose} fullWidth maxWidth="xs" data-testid="add-contact-dialog">
      <DialogTitle>{t('tickets.newTicket.addContactTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <TextField
            label={t('tickets.contact.name')}
            value={values.name}
            onChange={(event) => setValues((v) => ({ ...v, name: event.target.value }))}
            error={Boolean(errors.name)}
            helperText={errors.name}
            autoFocus
            slotProps={{ htmlInput: { 'data-testid': 'add-contact-name' } }}
          />
          <TextField
            label={t('tickets.contact.number')}
            value={values.number}
            onChange={(event) => setValues((v) => ({ ...v, number: event.target.value }))}
            error={Boolean(errors.number)}
            helperText={errors.number ?? t('tickets.contact.numberHelp')}
            slotProps={{ htmlInput: { 'data-testid': 'add-contact-number', inputMode: 'tel' } }}
          />
        </Stack>
      </DialogContent>
      <ModalActions
        onCancel={onClose}
        submitLabel={t('common.add')}
        submitTestId="add-contact-submit"
        pending={create.isPending}
        onSubmit={submit}
      />
    </Dialog>
  );
}

interface NewTicketModalProps {
  open: boolean;
  onClose: () => void;
}

/**
 * New ticket: a contact (searched from 3 characters, or added on the spot), a queue (required
 * for non-admins) and optionally a connection. Opens the created ticket.
 */
export function NewTicketModal({ open, onClose }: NewTicketModalProps) {
  const { t } = useTranslation();
  const me = useSessionUser();
  const navigate = useNavigate();
  const admin = can(me.profile, 'tickets-manager:showall');
  const store = useStoreTicket(viewerOf(me));
  const [input, setInput] = useState('');
  const [contact, setContact] = useState<Contact | null>(null);
  const [queueId, setQueueId] = useState<number | ''>('');
  const [whatsappId, setWhatsappId] = useState<number | ''>('');
  const [queueError, setQueueError] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [adding, setAdding] = useState<string | null>(null);
  const term = useDebouncedValue(input.trim());
  const searching = open && term.length >= SEARCH_MIN_CHARS && term !== contact?.name;

  const contacts = useQuery({
    queryKey: queryKeys.tickets.contactOptions(term),
    queryFn: () => contactsApi.search(term),
    enabled: searching,
  });
  const companyQueues = useQueues(open && admin);
  const queues = admin ? (companyQueues.data ?? []) : me.queues;

  useEffect(() => {
    if (!open) return;
    setInput('');
    setContact(null);
    setQueueId(me.queues.length === 1 && !admin ? me.queues[0].id : '');
    setWhatsappId('');
    setQueueError(false);
    setNotice(null);
  }, [open, admin, me.queues]);

  const create = useMutation({
    mutationFn: (contactId: number) =>
      ticketsApi.create({
        contactId,
        queueId: queueId === '' ? null : queueId,
        whatsappId: whatsappId === '' ? null : whatsappId,
        userId: me.id,
        status: 'open',
      }),
    onSuccess: (ticket) => {
      store(ticket);
      onClose();
      navigate(`/tickets/${ticket.uuid}`);
    },
    onError: (err) => {
      const outcome = otherOpenTicketOutcome(err, me.id);
      if (!outcome) return toastError(err);
      if ('open' in outcome) {
        onClose();
        navigate(`/tickets/${outcome.open}`);
        return;
      }
      setNotice(
        t('tickets.newTicket.otherOpen', {
          user: outcome.notice.user ?? t('tickets.newTicket.nobody'),
          queue: outcome.notice.queue ?? t('tickets.noQueue'),
        }),
      );
    },
  });

  function submit() {
    if (!contact) return;
    if (!admin && queueId === '') {
      setQueueError(true);
      toast.error(t('tickets.newTicket.queueRequired'), { toastId: 'queue-required' });
      return;
    }
    setNotice(null);
    create.mutate(contact.id);
  }

  const found: ContactOption[] = searching ? (contacts.data ?? []).map((c) => ({ kind: 'contact', contact: c })) : [];
  const options: ContactOption[] =
    input.trim().length >= SEARCH_MIN_CHARS && !contact ? [...found, { kind: 'add', name: input.trim() }] : found;

  return (
    <>
      <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="new-ticket-modal">
        <DialogTitle>{t('tickets.newTicket.title')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            {notice && (
              <Alert severity="warning" data-testid="other-open-notice">
                {notice}
              </Alert>
            )}
            <Autocomplete<ContactOption, false, false, false>
              options={options}
              value={contact ? { kind: 'contact', contact } : null}
              inputValue={input}
              onInputChange={(_, value, reason) => {
                if (reason === 'reset' && contact) return setInput(contact.name);
                setInput(value);
                if (reason === 'input' && contact && value !== contact.name) setContact(null);
              }}
              onChange={(_, option) => {
                if (!option) return setContact(null);
                if (option.kind === 'add') return setAdding(option.name);
                setContact(option.contact);
              }}
              filterOptions={(list) => list}
              getOptionLabel={(option) => (option.kind === 'contact' ? option.contact.name : option.name)}
              isOptionEqualToValue={(a, b) =>
                a.kind === 'contact' && b.kind === 'contact' ? a.contact.id === b.contact.id : a.kind === b.kind
              }
              loading={contacts.isFetching}
              noOptionsText={
                input.trim().length < SEARCH_MIN_CHARS
                  ? t('tickets.newTicket.typeToSearch', { count: SEARCH_MIN_CHARS })
                  : t('tickets.newTicket.noContacts')
              }
              renderOption={(props, option) => {
                const { key, ...rest } = props as typeof props & { key: string };
                return option.kind === 'add' ? (
                  <Box component="li" key="add" {...rest} data-testid="add-contact-option">
                    <PersonAdd fontSize="small" sx={{ mr: 1 }} color="primary" />
                    {t('tickets.newTicket.addContact', { name: option.name })}
                  </Box>
                ) : (
                  <Box
                    component="li"
                    key={key}
                    {...rest}
                    data-testid={`contact-option-${option.contact.id}`}
                    sx={{ display: 'block !important' }}
                  >
                    <Typography variant="body2">{option.contact.name}</Typography>
                    <Typography variant="caption" color="text.secondary">
                      {option.contact.number}
                    </Typography>
                  </Box>
                );
              }}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t('tickets.newTicket.contact')}
                  autoFocus
                  slotProps={{
                    ...params.slotProps,
                    htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'new-ticket-contact' },
                    input: {
                      ...params.slotProps.input,
                      endAdornment: (
                        <>
                          {contacts.isFetching && <CircularProgress color="inherit" size={18} />}
                          {params.slotProps.input.endAdornment}
                        </>
                      ),
                    },
                  }}
                />
              )}
            />
            <QueueSelect
              queues={queues}
              value={queueId}
              onChange={(value) => {
                setQueueId(value);
                setQueueError(false);
              }}
              label={t('tickets.newTicket.queue')}
              testId="new-ticket-queue"
              optionTestId="new-ticket-queue"
              emptyLabel={admin ? t('tickets.noQueue') : undefined}
              error={queueError}
              helperText={queueError ? t('tickets.newTicket.queueRequired') : undefined}
            />
            <ConnectionSelect
              enabled={open}
              value={whatsappId}
              onChange={setWhatsappId}
              label={t('tickets.newTicket.connection')}
              emptyLabel={t('tickets.newTicket.defaultConnection')}
              testId="new-ticket-connection"
            />
          </Stack>
        </DialogContent>
        <ModalActions
          onCancel={onClose}
          submitLabel={t('tickets.newTicket.submit')}
          submitTestId="new-ticket-submit"
          pending={create.isPending}
          disabled={!contact}
          onSubmit={submit}
        />
      </Dialog>
      <AddContactDialog
        name={adding}
        onClose={() => setAdding(null)}
        onCreated={(created) => {
          setContact(created);
          setInput(created.name);
        }}
      />
    </>
  );
}
