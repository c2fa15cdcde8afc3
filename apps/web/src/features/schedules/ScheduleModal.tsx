import { type Contact, SCHEDULE_BODY_MIN, type Schedule, SEARCH_MIN_CHARS, scheduleRecurrences } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { queryKeys } from '../../api/queryKeys';
import { DialogForm } from '../../components/DialogForm';
import { FormSwitch, FormTextField } from '../../components/FormFields';
import { MediaAttachment } from '../../components/MediaAttachment';
import { serverFieldErrors } from '../../components/serverFieldErrors';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { useMediaRecordForm } from '../../components/useMediaRecordForm';
import { translateValidation } from '../../i18n/validation';
import { ConnectionSelect } from '../tickets/ConnectionSelect';
import { contactsApi } from '../tickets/ticketsApi';
import { dateTimeInputToIso, defaultSendAt, toDateTimeInput } from './format';
import { type ScheduleBody, schedulesApi } from './schedulesApi';

/** Spec part 2 §5: the attachment is an image. */
export const SCHEDULE_MEDIA_ACCEPT = '.png,.jpg,.jpeg';
const BODY_TOO_SHORT = 'Mensagem muito curta';

/** The contact of a schedule, as the dialog keeps it. */
export type ScheduleContact = Pick<Contact, 'id' | 'name' | 'number'>;

/** Spec part 2 §5: body of 5 characters or more, contact and send time required. */
export const scheduleFormSchema = z.object({
  contact: z
    .object({ id: z.number(), name: z.string(), number: z.string() })
    .nullable()
    .refine((value) => Boolean(value), 'Obrigatório'),
  body: z.string().trim().min(SCHEDULE_BODY_MIN, BODY_TOO_SHORT).max(4096, 'Muito longo!'),
  sendAt: z.string().trim().min(1, 'Obrigatório'),
  whatsappId: z.union([z.number(), z.literal('')]),
  recurrence: z.enum(scheduleRecurrences),
  cancelIfReplied: z.boolean(),
});
type ScheduleFormValues = z.infer<typeof scheduleFormSchema>;

function ContactField({
  value,
  onChange,
  error,
  disabled,
}: {
  value: ScheduleContact | null;
  onChange: (contact: ScheduleContact | null) => void;
  error?: string;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const [input, setInput] = useState(value?.name ?? '');
  const term = useDebouncedValue(input.trim());
  const searching = term.length >= SEARCH_MIN_CHARS && term !== value?.name;
  const contacts = useQuery({
    queryKey: queryKeys.tickets.contactOptions(term),
    queryFn: () => contactsApi.search(term),
    enabled: searching && !disabled,
  });
  const options: ScheduleContact[] = searching ? (contacts.data ?? []) : value ? [value] : [];
  return (
    <Autocomplete<ScheduleContact, false, false, false>
      options={options}
      value={value}
      disabled={disabled}
      inputValue={input}
      onInputChange={(_, text, reason) => {
        if (reason === 'reset' && value) return setInput(value.name);
        setInput(text);
        if (reason === 'input' && value && text !== value.name) onChange(null);
      }}
      onChange={(_, option) => onChange(option)}
      filterOptions={(list) => list}
      getOptionLabel={(option) => option.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={contacts.isFetching}
      noOptionsText={
        input.trim().length < SEARCH_MIN_CHARS
          ? t('tickets.newTicket.typeToSearch', { count: SEARCH_MIN_CHARS })
          : t('tickets.newTicket.noContacts')
      }
      renderOption={(props, option) => {
        const { key, ...rest } = props as typeof props & { key: string };
        return (
          <Box
            component="li"
            key={key}
            {...rest}
            data-testid={`schedule-contact-option-${option.id}`}
            sx={{ display: 'block !important' }}
          >
            <Typography variant="body2">{option.name}</Typography>
            <Typography variant="caption" color="text.secondary">
              {option.number}
            </Typography>
          </Box>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('schedules.modal.contact')}
          error={Boolean(error)}
          helperText={error}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'schedule-contact' },
          }}
        />
      )}
    />
  );
}

function toBody(values: ScheduleFormValues): ScheduleBody {
  return {
    contactId: values.contact?.id ?? 0,
    body: values.body,
    sendAt: dateTimeInputToIso(values.sendAt),
    whatsappId: values.whatsappId === '' ? null : values.whatsappId,
    recurrence: values.recurrence,
    cancelIfReplied: values.cancelIfReplied,
  };
}

function ScheduleForm({
  record,
  contact,
  onClose,
}: {
  record: Schedule | null;
  contact: ScheduleContact | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // Spec part 2 §4: a sent schedule is only shown, never saved again.
  const readOnly = Boolean(record?.sentAt);
  const { control, handleSubmit, setError } = useForm<ScheduleFormValues>({
    resolver: zodResolver(scheduleFormSchema),
    disabled: readOnly,
    defaultValues: record
      ? {
          contact: record.contact,
          body: record.body,
          sendAt: toDateTimeInput(new Date(record.sendAt)),
          whatsappId: record.whatsappId ?? '',
          recurrence: record.recurrence,
          cancelIfReplied: record.cancelIfReplied,
        }
      : {
          contact,
          body: '',
          sendAt: defaultSendAt(),
          whatsappId: '',
          recurrence: 'none',
          cancelIfReplied: false,
        },
  });
  const { save, attachment } = useMediaRecordForm({
    record,
    api: schedulesApi,
    savedText: t('schedules.modal.success'),
    mediaRemovedText: t('schedules.modal.mediaRemoved'),
    refresh: () => queryClient.invalidateQueries({ queryKey: queryKeys.schedules.all }),
    onSaved: onClose,
    fileTypes: { accept: SCHEDULE_MEDIA_ACCEPT, error: t('schedules.modal.mediaTypes') },
  });
  const errorText = (message: string | undefined) =>
    message === BODY_TOO_SHORT ? t('schedules.modal.bodyTooShort') : translateValidation(t, message);

  const content = (
    <DialogContent dividers>
      <Stack spacing={2}>
        {record?.status === 'ERRO' && record.lastError && (
          <Alert severity="error" data-testid="schedule-last-error">
            {t('schedules.errorDetail', { error: record.lastError, attempts: record.attempts })}
          </Alert>
        )}
        <Controller
          name="contact"
          control={control}
          render={({ field, fieldState }) => (
            <ContactField
              value={field.value}
              onChange={field.onChange}
              error={errorText(fieldState.error?.message)}
              disabled={readOnly}
            />
          )}
        />
        <FormTextField
          control={control}
          name="body"
          label={t('schedules.modal.body')}
          multiline
          minRows={3}
          maxRows={10}
          fullWidth
          testId="schedule-body"
          errorText={errorText}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormTextField
            control={control}
            name="sendAt"
            type="datetime-local"
            label={t('schedules.modal.sendAt')}
            fullWidth
            testId="schedule-send-at"
            errorText={errorText}
          />
          <Controller
            name="whatsappId"
            control={control}
            render={({ field }) => (
              <Box sx={{ width: '100%', '& > .MuiTextField-root': { width: '100%' } }}>
                <ConnectionSelect
                  enabled
                  value={field.value}
                  onChange={field.onChange}
                  label={t('schedules.modal.connection')}
                  emptyLabel={t('schedules.modal.defaultConnection')}
                  testId="schedule-connection"
                />
              </Box>
            )}
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <Controller
            name="recurrence"
            control={control}
            render={({ field }) => (
              <TextField
                {...field}
                select
                label={t('schedules.modal.recurrence')}
                sx={{ minWidth: 200 }}
                data-testid="schedule-recurrence"
              >
                {scheduleRecurrences.map((value) => (
                  <MenuItem key={value} value={value}>
                    {t(`schedules.recurrence.${value}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <FormSwitch
            control={control}
            name="cancelIfReplied"
            label={t('schedules.modal.cancelIfReplied')}
            testId="schedule-cancel-if-replied"
          />
        </Stack>
        {readOnly ? (
          attachment.mediaName && (
            <Typography variant="body2" data-testid="schedule-media-name">
              {attachment.mediaName}
            </Typography>
          )
        ) : (
          <MediaAttachment
            {...attachment}
            testIdPrefix="schedule"
            accept={SCHEDULE_MEDIA_ACCEPT}
            icon={<ImageOutlined />}
            labels={{
              attach: t('schedules.modal.attach'),
              replace: t('schedules.modal.replaceMedia'),
              none: t('schedules.modal.noMedia'),
            }}
          />
        )}
      </Stack>
    </DialogContent>
  );

  if (readOnly)
    return (
      <>
        {content}
        <DialogActions>
          <Button onClick={onClose} variant="contained" data-testid="schedule-modal-close">
            {t('common.close')}
          </Button>
        </DialogActions>
      </>
    );

  return (
    <DialogForm
      onSubmit={handleSubmit((values) =>
        save.mutate(toBody(values), {
          onError: (err) =>
            serverFieldErrors<ScheduleFormValues>(err, { ERR_SCHEDULE_SEND_AT: 'sendAt' }).forEach(
              ({ name, message }, index) => {
                setError(
                  name === ('contactId' as string) ? 'contact' : name,
                  { type: 'server', message },
                  {
                    shouldFocus: index === 0,
                  },
                );
              },
            ),
        }),
      )}
      onCancel={onClose}
      testIdPrefix="schedule-modal"
      editing={record !== null}
      pending={save.isPending}
    >
      {content}
    </DialogForm>
  );
}

interface ScheduleModalProps {
  open: boolean;
  /** The schedule being edited (or shown, once sent); null adds one. */
  record: Schedule | null;
  /** The contact of a new schedule (the ticket's, or the `?contactId=` one). */
  contact?: ScheduleContact | null;
  onClose: () => void;
}

/** Add, edit or (once sent) show a scheduled message (spec part 2 §2, §4, §5). */
export function ScheduleModal({ open, record, contact = null, onClose }: ScheduleModalProps) {
  const { t } = useTranslation();
  const title = record?.sentAt ? 'titleView' : record ? 'titleEdit' : 'titleAdd';
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="schedule-modal">
      <DialogTitle>{t(`schedules.modal.${title}`)}</DialogTitle>
      {open && (
        <ScheduleForm
          key={record?.id ?? `new-${contact?.id ?? ''}`}
          record={record}
          contact={contact}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}
