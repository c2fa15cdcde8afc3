import { PROVIDERS, type Whatsapp } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Control, Controller, type FieldPath, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { DialogForm } from '../../components/DialogForm';
import { FormNumberField, FormSwitch, FormTextField } from '../../components/FormFields';
import { QueueDot, QueueMultiSelect } from '../../components/QueueSelect';
import { shownValue } from '../../components/RecordSelect';
import { formErrorHandler } from '../../components/serverFieldErrors';
import { translateValidation } from '../../i18n/validation';
import { ConnectionTokenSection } from '../messages-api/ConnectionTokenSection';
import { PromptSelect } from '../prompts/PromptSelect';
import { IntegrationSelect } from '../queue-integrations/IntegrationSelect';
import { useQueues } from '../queues/queuesApi';
import {
  CLOUD_FIELDS,
  type ConnectionFormValues,
  connectionBody,
  connectionFormSchema,
  connectionToForm,
  emptyConnectionForm,
  HOLIDAY_END_BEFORE_START,
} from './connectionForm';
import { connectionsApi } from './connectionsApi';
import { applyWhatsappEvent } from './connectionsCache';

interface ConnectionModalProps {
  open: boolean;
  /** The connection to edit; null adds a new one. */
  whatsapp: Whatsapp | null;
  onClose: () => void;
}

type TextName = Extract<
  FieldPath<ConnectionFormValues>,
  'greetingMessage' | 'complationMessage' | 'outOfHoursMessage' | 'ratingMessage' | 'expiresInactiveMessage'
>;

const MESSAGE_FIELDS: { name: TextName; testId: string }[] = [
  { name: 'greetingMessage', testId: 'connection-greeting' },
  { name: 'complationMessage', testId: 'connection-completion' },
  { name: 'outOfHoursMessage', testId: 'connection-out-of-hours' },
  { name: 'ratingMessage', testId: 'connection-rating' },
  { name: 'expiresInactiveMessage', testId: 'connection-expires-message' },
];

function ConnectionForm({ whatsapp, onClose }: { whatsapp: Whatsapp | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const queues = useQueues();
  const { control, handleSubmit, setError } = useForm<ConnectionFormValues>({
    resolver: zodResolver(connectionFormSchema),
    defaultValues: whatsapp ? connectionToForm(whatsapp) : emptyConnectionForm(),
  });
  const provider = useWatch({ control, name: 'provider' });

  const save = useMutation({
    mutationFn: (values: ConnectionFormValues) => {
      const body = connectionBody(values);
      return whatsapp ? connectionsApi.update(whatsapp.id, body) : connectionsApi.create(body);
    },
    onSuccess: async (saved) => {
      toast.success(t('connectionModal.success'));
      queryClient.setQueryData<Whatsapp[]>(queryKeys.whatsapps, (list) =>
        applyWhatsappEvent(list, { action: 'update', whatsapp: saved }),
      );
      await queryClient.invalidateQueries({ queryKey: queryKeys.whatsapps });
      onClose();
    },
    onError: formErrorHandler(setError, {
      ERR_WAPP_GREETING_REQUIRED: 'greetingMessage',
      ERR_WAPP_NAME_ALREADY_EXISTS: 'name',
    }),
  });

  return (
    <DialogForm
      onSubmit={handleSubmit((values) => save.mutate(values))}
      onCancel={onClose}
      testIdPrefix="connection-modal"
      editing={whatsapp !== null}
      pending={save.isPending}
    >
      <DialogContent dividers>
        <Stack spacing={2}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
            <FormTextField
              control={control}
              name="name"
              label={t('connectionModal.name')}
              autoFocus
              fullWidth
              testId="connection-name"
            />
            <Controller
              name="provider"
              control={control}
              render={({ field }) => (
                <TextField
                  {...field}
                  select
                  label={t('connectionModal.provider')}
                  fullWidth
                  disabled={whatsapp !== null}
                  helperText={whatsapp ? t('connectionModal.providerFixed') : undefined}
                  data-testid="connection-provider"
                >
                  {PROVIDERS.map((p) => (
                    <MenuItem key={p} value={p} data-testid={`connection-provider-option-${p}`}>
                      {t(`connections.providers.${p}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          </Stack>
          <FormSwitch
            control={control}
            name="isDefault"
            label={t('connectionModal.isDefault')}
            testId="connection-default"
          />
          {provider === 'cloud' && (
            <Stack spacing={2} data-testid="connection-cloud-fields">
              <Divider textAlign="left">
                <Typography variant="overline">{t('connectionModal.cloudTitle')}</Typography>
              </Divider>
              <Alert severity="info">
                {t(whatsapp ? 'connectionModal.cloudHelpEdit' : 'connectionModal.cloudHelp')}
              </Alert>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {CLOUD_FIELDS.slice(0, 2).map((name) => (
                  <CloudField key={name} control={control} name={name} />
                ))}
              </Stack>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                {CLOUD_FIELDS.slice(2).map((name) => (
                  <CloudField key={name} control={control} name={name} />
                ))}
              </Stack>
            </Stack>
          )}
          {provider === 'beta' && (
            <FormTextField
              control={control}
              name="pairingNumber"
              label={t('connectionModal.pairingNumber')}
              helperText={t(whatsapp ? 'connectionModal.pairingHelpEdit' : 'connectionModal.pairingHelp')}
              autoComplete="off"
              fullWidth
              testId="connection-pairing-number"
            />
          )}
          <Divider textAlign="left">
            <Typography variant="overline">{t('connectionModal.messagesTitle')}</Typography>
          </Divider>
          {MESSAGE_FIELDS.map(({ name, testId }) => (
            <FormTextField
              key={name}
              control={control}
              name={name}
              label={t(`connectionModal.${name}`)}
              multiline
              minRows={2}
              maxRows={6}
              fullWidth
              testId={testId}
            />
          ))}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormNumberField
              control={control}
              name="expiresTicket"
              label={t('connectionModal.expiresTicket')}
              helperText={t('connectionModal.minutesHelp')}
              fullWidth
              testId="connection-expires-ticket"
            />
            <FormNumberField
              control={control}
              name="maxUseBotQueues"
              label={t('connectionModal.maxUseBotQueues')}
              fullWidth
              testId="connection-max-bot-queues"
            />
            <FormNumberField
              control={control}
              name="timeUseBotQueues"
              label={t('connectionModal.timeUseBotQueues')}
              helperText={t('connectionModal.minutesHelp')}
              fullWidth
              testId="connection-time-bot-queues"
            />
          </Stack>
          <QueueMultiSelect
            control={control}
            name="queueIds"
            queues={queues.data}
            label={t('connectionModal.queues')}
            testId="connection-queues"
            optionTestId="connection-queue-option"
            helperText={queues.data?.length === 0 ? t('connectionModal.noQueues') : undefined}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
            <PromptSelect
              control={control}
              name="promptId"
              testId="connection-prompt"
              helperText={t('prompts.select.connectionHelp')}
            />
            <IntegrationSelect
              control={control}
              name="integrationId"
              testId="connection-integration"
              helperText={t('queueIntegrations.select.connectionHelp')}
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
            <FormNumberField
              control={control}
              name="timeSendQueue"
              label={t('connectionModal.timeSendQueue')}
              helperText={t('connectionModal.timeSendQueueHelp')}
              fullWidth
              testId="connection-time-send-queue"
            />
            <Controller
              name="sendIdQueue"
              control={control}
              render={({ field, fieldState }) => (
                <TextField
                  select
                  label={t('connectionModal.sendIdQueue')}
                  value={shownValue(field.value, queues.data)}
                  onChange={(event) => field.onChange(event.target.value === '' ? null : Number(event.target.value))}
                  error={Boolean(fieldState.error)}
                  helperText={translateValidation(t, fieldState.error?.message)}
                  fullWidth
                  data-testid="connection-send-queue"
                >
                  <MenuItem value="">
                    <em>{t('connectionModal.noSendQueue')}</em>
                  </MenuItem>
                  {(queues.data ?? []).map((q) => (
                    <MenuItem key={q.id} value={q.id} data-testid={`connection-send-queue-option-${q.id}`}>
                      <QueueDot color={q.color} />
                      {q.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
          </Stack>
          <Divider textAlign="left">
            <Typography variant="overline">{t('connectionModal.holidayTitle')}</Typography>
          </Divider>
          <FormTextField
            control={control}
            name="queueHolidayMessage"
            label={t('connectionModal.queueHolidayMessage')}
            multiline
            minRows={2}
            maxRows={6}
            fullWidth
            testId="connection-holiday-message"
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <DateField control={control} name="queueHolidayDate" testId="connection-holiday-start" />
            <DateField control={control} name="queueHolidayEnd" testId="connection-holiday-end" />
          </Stack>
          {whatsapp && <ConnectionTokenSection whatsapp={whatsapp} />}
        </Stack>
      </DialogContent>
    </DialogForm>
  );
}

/** A holiday day ('' or yyyy-mm-dd); its label always shrunk above the browser's date mask. */
function DateField({
  control,
  name,
  testId,
}: {
  control: Control<ConnectionFormValues>;
  name: 'queueHolidayDate' | 'queueHolidayEnd';
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          type="date"
          label={t(`connectionModal.${name}`)}
          fullWidth
          error={Boolean(fieldState.error)}
          helperText={
            fieldState.error?.message === HOLIDAY_END_BEFORE_START
              ? t(HOLIDAY_END_BEFORE_START)
              : translateValidation(t, fieldState.error?.message)
          }
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': testId } }}
        />
      )}
    />
  );
}

function CloudField({
  control,
  name,
}: {
  control: Control<ConnectionFormValues>;
  name: (typeof CLOUD_FIELDS)[number];
}) {
  const { t } = useTranslation();
  const secret = name === 'accessToken' || name === 'appSecret';
  return (
    <FormTextField
      control={control}
      name={name}
      label={t(`connectionModal.cloud.${name}`)}
      type={secret ? 'password' : 'text'}
      autoComplete="off"
      fullWidth
      testId={`connection-cloud-${name}`}
    />
  );
}

/** Add or edit a connection (admins). The form mounts with the dialog, so live updates never overwrite edits. */
export function ConnectionModal({ open, whatsapp, onClose }: ConnectionModalProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" data-testid="connection-modal">
      <DialogTitle>{t(whatsapp ? 'connectionModal.titleEdit' : 'connectionModal.titleAdd')}</DialogTitle>
      {open && <ConnectionForm key={whatsapp?.id ?? 'new'} whatsapp={whatsapp} onClose={onClose} />}
    </Dialog>
  );
}
