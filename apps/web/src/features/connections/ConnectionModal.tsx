import { PROVIDERS, type Whatsapp } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Control, Controller, type FieldPath, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { toastError } from '../../components/toastError';
import { translateValidation } from '../../i18n/validation';
import { useQueues } from '../queues/queuesApi';
import {
  CLOUD_FIELDS,
  type ConnectionFormValues,
  connectionBody,
  connectionFormSchema,
  connectionToForm,
  emptyConnectionForm,
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
type NumberName = Extract<FieldPath<ConnectionFormValues>, 'expiresTicket' | 'timeUseBotQueues' | 'maxUseBotQueues'>;

const MESSAGE_FIELDS: { name: TextName; testId: string }[] = [
  { name: 'greetingMessage', testId: 'connection-greeting' },
  { name: 'complationMessage', testId: 'connection-completion' },
  { name: 'outOfHoursMessage', testId: 'connection-out-of-hours' },
  { name: 'ratingMessage', testId: 'connection-rating' },
  { name: 'expiresInactiveMessage', testId: 'connection-expires-message' },
];

function NumberField({
  control,
  name,
  label,
  testId,
  helper,
}: {
  control: Control<ConnectionFormValues>;
  name: NumberName;
  label: string;
  testId: string;
  helper?: string;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          onChange={(event) => field.onChange(event.target.value === '' ? Number.NaN : Number(event.target.value))}
          value={Number.isNaN(field.value) ? '' : field.value}
          type="number"
          label={label}
          fullWidth
          error={Boolean(fieldState.error)}
          helperText={translateValidation(t, fieldState.error?.message) ?? helper}
          slotProps={{ htmlInput: { min: 0, 'data-testid': testId } }}
        />
      )}
    />
  );
}

function ConnectionForm({ whatsapp, onClose }: { whatsapp: Whatsapp | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const queues = useQueues();
  const { control, handleSubmit } = useForm<ConnectionFormValues>({
    resolver: zodResolver(connectionFormSchema),
    defaultValues: whatsapp ? connectionToForm(whatsapp) : emptyConnectionForm(),
  });
  const provider = useWatch({ control, name: 'provider' });

  const save = useMutation({
    mutationFn: (values: ConnectionFormValues) => {
      const body = connectionBody(values, whatsapp ?? undefined);
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
    onError: toastError,
  });

  return (
    <Box
      component="form"
      noValidate
      onSubmit={handleSubmit((values) => save.mutate(values))}
      sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
    >
      <DialogContent dividers>
        <Stack spacing={2}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
            <Controller
              name="name"
              control={control}
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  label={t('connectionModal.name')}
                  autoFocus
                  fullWidth
                  error={Boolean(fieldState.error)}
                  helperText={translateValidation(t, fieldState.error?.message)}
                  slotProps={{ htmlInput: { 'data-testid': 'connection-name' } }}
                />
              )}
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
          <Controller
            name="isDefault"
            control={control}
            render={({ field }) => (
              <FormControlLabel
                control={
                  <Switch
                    checked={field.value}
                    onChange={(event) => field.onChange(event.target.checked)}
                    slotProps={{ input: { 'data-testid': 'connection-default' } as object }}
                  />
                }
                label={t('connectionModal.isDefault')}
              />
            )}
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
          <Divider textAlign="left">
            <Typography variant="overline">{t('connectionModal.messagesTitle')}</Typography>
          </Divider>
          {MESSAGE_FIELDS.map(({ name, testId }) => (
            <Controller
              key={name}
              name={name}
              control={control}
              render={({ field, fieldState }) => (
                <TextField
                  {...field}
                  label={t(`connectionModal.${name}`)}
                  multiline
                  minRows={2}
                  maxRows={6}
                  fullWidth
                  error={Boolean(fieldState.error)}
                  helperText={translateValidation(t, fieldState.error?.message)}
                  slotProps={{ htmlInput: { 'data-testid': testId } }}
                />
              )}
            />
          ))}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <NumberField
              control={control}
              name="expiresTicket"
              label={t('connectionModal.expiresTicket')}
              helper={t('connectionModal.minutesHelp')}
              testId="connection-expires-ticket"
            />
            <NumberField
              control={control}
              name="maxUseBotQueues"
              label={t('connectionModal.maxUseBotQueues')}
              testId="connection-max-bot-queues"
            />
            <NumberField
              control={control}
              name="timeUseBotQueues"
              label={t('connectionModal.timeUseBotQueues')}
              helper={t('connectionModal.minutesHelp')}
              testId="connection-time-bot-queues"
            />
          </Stack>
          <Controller
            name="queueIds"
            control={control}
            render={({ field }) => (
              <TextField
                {...field}
                select
                label={t('connectionModal.queues')}
                fullWidth
                data-testid="connection-queues"
                helperText={queues.data?.length === 0 ? t('connectionModal.noQueues') : undefined}
                slotProps={{
                  select: {
                    multiple: true,
                    renderValue: (selected) => (
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                        {(selected as number[]).map((id) => {
                          const queue = queues.data?.find((q) => q.id === id);
                          return (
                            <Chip
                              key={id}
                              size="small"
                              label={queue?.name ?? id}
                              sx={{ bgcolor: queue?.color, color: queue ? '#fff' : undefined }}
                            />
                          );
                        })}
                      </Box>
                    ),
                  },
                }}
              >
                {(queues.data ?? []).map((queue) => (
                  <MenuItem key={queue.id} value={queue.id} data-testid={`connection-queue-option-${queue.id}`}>
                    <Box
                      component="span"
                      sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: queue.color, mr: 1.5 }}
                    />
                    {queue.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} color="inherit" disabled={save.isPending} data-testid="connection-modal-cancel">
          {t('common.cancel')}
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={save.isPending}
          startIcon={save.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
          data-testid="connection-modal-submit"
        >
          {t(whatsapp ? 'common.save' : 'common.add')}
        </Button>
      </DialogActions>
    </Box>
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
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          label={t(`connectionModal.cloud.${name}`)}
          type={secret ? 'password' : 'text'}
          autoComplete="off"
          fullWidth
          error={Boolean(fieldState.error)}
          helperText={translateValidation(t, fieldState.error?.message)}
          slotProps={{ htmlInput: { 'data-testid': `connection-cloud-${name}` } }}
        />
      )}
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
