import { type Prompt, promptMsg } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { DialogForm } from '../../components/DialogForm';
import { FormNumberField, FormPasswordField, FormTextField } from '../../components/FormFields';
import { QueueDot } from '../../components/QueueSelect';
import { shownValue } from '../../components/RecordSelect';
import { formErrorHandler } from '../../components/serverFieldErrors';
import { translateValidation } from '../../i18n/validation';
import { useQueues } from '../queues/queuesApi';
import {
  createBody,
  emptyPromptForm,
  PROMPT_VOICES,
  type PromptFormValues,
  promptFormSchema,
  promptToForm,
  updateBody,
} from './promptForm';
import { promptsApi, promptsKey } from './promptsApi';

function PromptForm({ record, onClose }: { record: Prompt | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const queues = useQueues();
  const { control, handleSubmit, setError } = useForm<PromptFormValues>({
    resolver: zodResolver(promptFormSchema(record !== null)),
    defaultValues: record ? promptToForm(record) : emptyPromptForm(),
  });
  const voice = useWatch({ control, name: 'voice' });
  const errorText = (message: string | undefined) => {
    if (message === promptMsg.prompt) return t('prompts.validation.prompt');
    if (message === promptMsg.queue) return t('prompts.validation.queue');
    return translateValidation(t, message);
  };

  const save = useMutation({
    mutationFn: (values: PromptFormValues) =>
      record ? promptsApi.update(record.id, updateBody(values)) : promptsApi.create(createBody(values)),
    onSuccess: async () => {
      toast.success(t('prompts.saved'));
      await queryClient.invalidateQueries({ queryKey: promptsKey });
      onClose();
    },
    onError: formErrorHandler(setError, { ERR_NO_QUEUE_FOUND: 'queueId' }),
  });

  return (
    <DialogForm
      onSubmit={handleSubmit((values) => save.mutate(values))}
      onCancel={onClose}
      testIdPrefix="prompt-modal"
      editing={record !== null}
      pending={save.isPending}
    >
      <DialogContent dividers>
        <Stack spacing={2}>
          <FormTextField
            control={control}
            name="name"
            label={t('prompts.form.name')}
            autoFocus
            fullWidth
            testId="prompt-name"
          />
          <FormPasswordField
            control={control}
            name="apiKey"
            label={t('prompts.form.apiKey')}
            toggleLabel={t('prompts.form.showKey')}
            autoComplete="off"
            fullWidth
            testId="prompt-api-key"
            helperText={
              record ? t('prompts.form.apiKeyKeep', { last4: record.apiKeyLast4 }) : t('prompts.form.apiKeyHelp')
            }
          />
          <FormTextField
            control={control}
            name="prompt"
            label={t('prompts.form.prompt')}
            multiline
            minRows={6}
            maxRows={16}
            fullWidth
            testId="prompt-prompt"
            errorText={errorText}
          />
          <Controller
            name="queueId"
            control={control}
            render={({ field, fieldState }) => (
              <TextField
                select
                label={t('prompts.form.queue')}
                value={shownValue(field.value, queues.data)}
                onChange={(event) => field.onChange(event.target.value === '' ? null : Number(event.target.value))}
                error={Boolean(fieldState.error)}
                helperText={errorText(fieldState.error?.message) ?? t('prompts.form.queueHelp')}
                fullWidth
                data-testid="prompt-queue"
              >
                {(queues.data ?? []).map((q) => (
                  <MenuItem key={q.id} value={q.id} data-testid={`prompt-queue-option-${q.id}`}>
                    <QueueDot color={q.color} />
                    {q.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
            <FormTextField
              control={control}
              name="model"
              label={t('prompts.form.model')}
              fullWidth
              testId="prompt-model"
            />
            <FormNumberField
              control={control}
              name="maxTokens"
              label={t('prompts.form.maxTokens')}
              fullWidth
              testId="prompt-max-tokens"
              htmlInput={{ min: 1 }}
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
            <FormTextField
              control={control}
              name="temperature"
              type="number"
              label={t('prompts.form.temperature')}
              helperText={t('prompts.form.temperatureHelp')}
              fullWidth
              testId="prompt-temperature"
              htmlInput={{ min: 0, max: 2, step: 0.1 }}
            />
            <FormNumberField
              control={control}
              name="maxMessages"
              label={t('prompts.form.maxMessages')}
              helperText={t('prompts.form.maxMessagesHelp')}
              fullWidth
              testId="prompt-max-messages"
              htmlInput={{ min: 1 }}
            />
          </Stack>
          <Controller
            name="voice"
            control={control}
            render={({ field }) => (
              <TextField
                {...field}
                select
                label={t('prompts.form.voice')}
                helperText={voice === 'texto' ? undefined : t('prompts.form.voiceTextOnly')}
                fullWidth
                data-testid="prompt-voice"
              >
                {PROMPT_VOICES.map((v) => (
                  <MenuItem key={v} value={v}>
                    {v === 'texto' ? t('prompts.form.voiceText') : v}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          {voice !== 'texto' && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <FormPasswordField
                control={control}
                name="voiceKey"
                label={t('prompts.form.voiceKey')}
                toggleLabel={t('prompts.form.showKey')}
                autoComplete="off"
                fullWidth
                testId="prompt-voice-key"
                helperText={
                  record?.voiceKeyLast4 ? t('prompts.form.apiKeyKeep', { last4: record.voiceKeyLast4 }) : undefined
                }
              />
              <FormTextField
                control={control}
                name="voiceRegion"
                label={t('prompts.form.voiceRegion')}
                fullWidth
                testId="prompt-voice-region"
              />
            </Stack>
          )}
        </Stack>
      </DialogContent>
    </DialogForm>
  );
}

/** Add or edit an AI prompt (spec part 2 §3). The form mounts with the dialog. */
export function PromptModal({ open, record, onClose }: { open: boolean; record: Prompt | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" data-testid="prompt-modal">
      <DialogTitle>{t(record ? 'prompts.form.titleEdit' : 'prompts.form.titleAdd')}</DialogTitle>
      {open && <PromptForm key={record?.id ?? 'new'} record={record} onClose={onClose} />}
    </Dialog>
  );
}
