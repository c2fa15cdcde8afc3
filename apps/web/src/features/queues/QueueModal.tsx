import type { Queue } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, type FieldErrors, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { DialogForm } from '../../components/DialogForm';
import { FormTextField } from '../../components/FormFields';
import { formErrorHandler } from '../../components/serverFieldErrors';
import { translateValidation } from '../../i18n/validation';
import { PromptSelect } from '../prompts/PromptSelect';
import { IntegrationSelect } from '../queue-integrations/IntegrationSelect';
import { ColorField } from './ColorField';
import { paletteSwatches } from './palette';
import { QueueOptionsEditor } from './QueueOptionsEditor';
import { emptyQueueForm, maskTime, type QueueFormValues, queueBody, queueFormSchema, queueToForm } from './queueForm';
import { queuesApi, useQueues } from './queuesApi';
import { applyQueueEvent } from './queuesCache';

type QueueTab = 'data' | 'schedules';

interface QueueModalProps {
  open: boolean;
  /** The queue to edit; null adds a new one. */
  queue: Queue | null;
  onClose: () => void;
}

function QueueForm({ queue, onClose }: { queue: Queue | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<QueueTab>('data');
  const queues = useQueues();
  const { control, handleSubmit, setError } = useForm<QueueFormValues>({
    resolver: zodResolver(queueFormSchema),
    defaultValues: queue ? queueToForm(queue) : emptyQueueForm(),
  });

  const save = useMutation({
    mutationFn: (values: QueueFormValues) =>
      queue ? queuesApi.update(queue.id, queueBody(values)) : queuesApi.create(queueBody(values)),
    onSuccess: async (saved) => {
      toast.success(t('queueModal.success'));
      queryClient.setQueryData<Queue[]>(queryKeys.queues, (list) =>
        applyQueueEvent(list, { action: 'update', queue: saved }),
      );
      await queryClient.invalidateQueries({ queryKey: queryKeys.queues, exact: true });
      onClose();
    },
    onError: formErrorHandler(setError, {
      ERR_QUEUE_NAME_ALREADY_EXISTS: 'name',
      ERR_QUEUE_COLOR_ALREADY_EXISTS: 'color',
    }),
  });

  const onInvalid = (errors: FieldErrors<QueueFormValues>) => {
    const dataErrors = ['name', 'color', 'greetingMessage', 'outOfHoursMessage', 'orderQueue'].some(
      (name) => name in errors,
    );
    setTab(dataErrors ? 'data' : 'schedules');
  };
  const errorText = (message: string | undefined) => translateValidation(t, message);

  return (
    <DialogForm
      onSubmit={handleSubmit((values) => save.mutate(values), onInvalid)}
      onCancel={onClose}
      testIdPrefix="queue-modal"
      editing={queue !== null}
      pending={save.isPending}
    >
      <Tabs
        value={tab}
        onChange={(_, value: QueueTab) => setTab(value)}
        variant="fullWidth"
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="data" label={t('queueModal.tabs.data')} data-testid="queue-tab-data" />
        <Tab value="schedules" label={t('queueModal.tabs.schedules')} data-testid="queue-tab-schedules" />
      </Tabs>
      <DialogContent sx={{ minHeight: 320 }}>
        {tab === 'data' ? (
          <Stack spacing={2} role="tabpanel" data-testid="queue-panel-data" sx={{ pt: 1 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
              <FormTextField
                control={control}
                name="name"
                label={t('queueModal.name')}
                autoFocus
                fullWidth
                testId="queue-name"
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
                    label={t('queueModal.color')}
                    swatches={paletteSwatches(queues.data ?? [], queue?.id ?? null)}
                    error={Boolean(fieldState.error)}
                    helperText={errorText(fieldState.error?.message)}
                    testId="queue-color"
                  />
                )}
              />
              <FormTextField
                control={control}
                name="orderQueue"
                label={t('queueModal.order')}
                sx={{ width: { sm: 180 }, flexShrink: 0 }}
                errorText={(message) => (message === undefined ? undefined : t('queueModal.invalidOrder'))}
                testId="queue-order"
                htmlInput={{ inputMode: 'numeric' }}
              />
            </Stack>
            <FormTextField
              control={control}
              name="greetingMessage"
              label={t('queueModal.greetingMessage')}
              multiline
              minRows={3}
              maxRows={8}
              fullWidth
              testId="queue-greeting"
            />
            <FormTextField
              control={control}
              name="outOfHoursMessage"
              label={t('queueModal.outOfHoursMessage')}
              multiline
              minRows={2}
              maxRows={8}
              fullWidth
              testId="queue-out-of-hours"
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
              <PromptSelect control={control} name="promptId" testId="queue-prompt" />
              <IntegrationSelect
                control={control}
                name="integrationId"
                testId="queue-integration"
                helperText={t('queueIntegrations.select.queueHelp')}
              />
            </Stack>
            <Divider />
            {queue ? (
              <QueueOptionsEditor queueId={queue.id} />
            ) : (
              <Alert severity="info" data-testid="queue-options-unsaved">
                {t('queueOptions.saveFirst')}
              </Alert>
            )}
          </Stack>
        ) : (
          <Stack spacing={1.5} role="tabpanel" data-testid="queue-panel-schedules" sx={{ pt: 1 }}>
            <Typography variant="body2" color="text.secondary">
              {t('queueModal.schedulesHelp')}
            </Typography>
            {queueFormDays.map((day, index) => (
              <Stack
                key={day}
                direction="row"
                spacing={2}
                sx={{ alignItems: 'flex-start' }}
                data-testid={`queue-schedule-${day}`}
              >
                <Typography sx={{ width: 140, pt: 1 }}>{t(`queueModal.weekdays.${day}`)}</Typography>
                {(['startTime', 'endTime'] as const).map((edge) => (
                  <Controller
                    key={edge}
                    name={`schedules.${index}.${edge}`}
                    control={control}
                    render={({ field, fieldState }) => (
                      <TextField
                        {...field}
                        onChange={(event) => field.onChange(maskTime(event.target.value))}
                        size="small"
                        label={t(`queueModal.${edge}`)}
                        placeholder="00:00"
                        error={Boolean(fieldState.error)}
                        helperText={fieldState.error ? t('queueModal.invalidTime') : undefined}
                        slotProps={{
                          htmlInput: {
                            inputMode: 'numeric',
                            maxLength: 5,
                            'data-testid': `queue-schedule-${day}-${edge === 'startTime' ? 'start' : 'end'}`,
                          },
                        }}
                      />
                    )}
                  />
                ))}
              </Stack>
            ))}
          </Stack>
        )}
      </DialogContent>
    </DialogForm>
  );
}

const queueFormDays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** Add or edit a queue: "Dados da Fila" (with the options tree of a saved queue) and "Horários de Atendimento". */
export function QueueModal({ open, queue, onClose }: QueueModalProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" data-testid="queue-modal">
      <DialogTitle>{t(queue ? 'queueModal.titleEdit' : 'queueModal.titleAdd')}</DialogTitle>
      {open && <QueueForm key={queue?.id ?? 'new'} queue={queue} onClose={onClose} />}
    </Dialog>
  );
}
