import {
  INTEGRATION_LANGUAGES,
  INTEGRATION_TYPES,
  type IntegrationTestReply,
  type IntegrationType,
  type QueueIntegration,
} from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import ContentCopy from '@mui/icons-material/ContentCopy';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Control, Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { DialogForm } from '../../components/DialogForm';
import { FormNumberField, FormTextField } from '../../components/FormFields';
import { formErrorHandler } from '../../components/serverFieldErrors';
import { errorMessage } from '../../components/toastError';
import { translateValidation } from '../../i18n/validation';
import { IntegrationLogo } from './IntegrationLogo';
import {
  emptyIntegrationForm,
  INVALID_CREDENTIALS,
  INVALID_URL,
  type IntegrationFormValues,
  integrationBody,
  integrationFormSchema,
  integrationTestBody,
  integrationToForm,
  SIGNED_TYPES,
} from './integrationForm';
import { queueIntegrationsApi } from './queueIntegrationsApi';

type ErrorText = (message: string | undefined) => string | undefined;

/** The fields of a Typebot flow (DOMAIN §17: expiry in hours, 0 = never; delay in ms between bubbles). */
function TypebotFields({ control, errorText }: { control: Control<IntegrationFormValues>; errorText: ErrorText }) {
  const { t } = useTranslation();
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <FormTextField
          control={control}
          name="urlN8N"
          label={t('queueIntegrations.form.url')}
          placeholder="https://typebot.exemplo.com.br"
          fullWidth
          testId="integration-url"
          errorText={errorText}
        />
        <FormTextField
          control={control}
          name="typebotSlug"
          label={t('queueIntegrations.form.typebotSlug')}
          fullWidth
          testId="integration-typebot-slug"
          errorText={errorText}
        />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <FormNumberField
          control={control}
          name="typebotExpires"
          label={t('queueIntegrations.form.typebotExpires')}
          helperText={t('queueIntegrations.form.typebotExpiresHelp')}
          fullWidth
          testId="integration-typebot-expires"
        />
        <FormNumberField
          control={control}
          name="typebotDelayMessage"
          label={t('queueIntegrations.form.typebotDelayMessage')}
          helperText={t('queueIntegrations.form.typebotDelayMessageHelp')}
          fullWidth
          testId="integration-typebot-delay"
        />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <FormTextField
          control={control}
          name="typebotKeywordFinish"
          label={t('queueIntegrations.form.typebotKeywordFinish')}
          fullWidth
          testId="integration-typebot-keyword-finish"
        />
        <FormTextField
          control={control}
          name="typebotKeywordRestart"
          label={t('queueIntegrations.form.typebotKeywordRestart')}
          fullWidth
          testId="integration-typebot-keyword-restart"
        />
      </Stack>
      <FormTextField
        control={control}
        name="typebotRestartMessage"
        label={t('queueIntegrations.form.typebotRestartMessage')}
        multiline
        minRows={2}
        maxRows={6}
        fullWidth
        testId="integration-typebot-restart-message"
      />
      <FormTextField
        control={control}
        name="typebotUnknownMessage"
        label={t('queueIntegrations.form.typebotUnknownMessage')}
        helperText={t('queueIntegrations.form.typebotUnknownMessageHelp')}
        multiline
        minRows={2}
        maxRows={6}
        fullWidth
        testId="integration-typebot-unknown-message"
      />
    </>
  );
}

/**
 * The HMAC key n8n and webhook deliveries are signed with (DOMAIN §17), read-only; the server
 * makes it when an integration of these types is first saved.
 */
function SigningSecret({ record }: { record: QueueIntegration | null }) {
  const { t } = useTranslation();
  const signed = record !== null && SIGNED_TYPES.includes(record.type);
  // A row that came by a live event has no secret (events reach every member): the record has it.
  const detail = useQuery({
    queryKey: queryKeys.queueIntegrations.detail(record?.id ?? 0),
    queryFn: () => queueIntegrationsApi.show(record?.id ?? 0),
    enabled: signed && !record.signingSecret,
  });
  const secret = signed ? (record.signingSecret ?? detail.data?.signingSecret) : undefined;
  if (!secret) {
    if (signed) return null;
    return (
      <Typography variant="body2" color="text.secondary" data-testid="integration-signing-secret-pending">
        {t('queueIntegrations.form.signingSecretPending')}
      </Typography>
    );
  }
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      toast.success(t('queueIntegrations.form.signingSecretCopied'));
    } catch {
      // No clipboard (an insecure origin): the field is selectable.
    }
  };
  return (
    <TextField
      label={t('queueIntegrations.form.signingSecret')}
      value={secret}
      fullWidth
      onFocus={(event) => event.target.select()}
      helperText={t('queueIntegrations.form.signingSecretHelp')}
      slotProps={{
        htmlInput: { readOnly: true, spellCheck: false, 'data-testid': 'integration-signing-secret' },
        input: {
          sx: { fontFamily: 'monospace' },
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={t('queueIntegrations.form.signingSecretCopy')}>
                <IconButton
                  onClick={() => void copy()}
                  aria-label={t('queueIntegrations.form.signingSecretCopy')}
                  data-testid="integration-signing-secret-copy"
                >
                  <ContentCopy fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** What the test call brought back: the messages the contact would receive and the control verbs, or the error. */
function TestResult({ reply }: { reply: IntegrationTestReply }) {
  const { t } = useTranslation();
  if (!reply.ok) {
    return (
      <Alert severity="error" data-testid="integration-test-result">
        <AlertTitle>{t('queueIntegrations.test.failed')}</AlertTitle>
        <span data-testid="integration-test-error">{reply.error || t('errors.generic')}</span>
      </Alert>
    );
  }
  return (
    <Alert severity="success" data-testid="integration-test-result">
      <AlertTitle>{t('queueIntegrations.test.replied')}</AlertTitle>
      {reply.messages.length === 0 ? (
        <Typography variant="body2">{t('queueIntegrations.test.noMessages')}</Typography>
      ) : (
        <Stack spacing={0.5}>
          {reply.messages.map((message, index) => (
            <Typography
              // The reply's order is its identity: messages may repeat.
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of one reply
              key={index}
              variant="body2"
              sx={{ whiteSpace: 'pre-wrap' }}
              data-testid={`integration-test-message-${index}`}
            >
              {message}
            </Typography>
          ))}
        </Stack>
      )}
      {reply.actions.length > 0 && (
        <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <Typography variant="caption">{t('queueIntegrations.test.actions')}</Typography>
          {reply.actions.map((action) => (
            <Chip key={action} size="small" label={action} data-testid={`integration-test-action-${action}`} />
          ))}
        </Stack>
      )}
    </Alert>
  );
}

function QueueIntegrationForm({ record, onClose }: { record: QueueIntegration | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const storedCredentials = record?.type === 'dialogflow' && record.jsonContentClientEmail !== '';
  const { control, handleSubmit, setError } = useForm<IntegrationFormValues>({
    resolver: zodResolver(integrationFormSchema(storedCredentials)),
    defaultValues: record ? integrationToForm(record) : emptyIntegrationForm(),
  });
  const type = useWatch({ control, name: 'type' });
  const [testText, setTestText] = useState(() => t('queueIntegrations.test.defaultText'));
  const [testReply, setTestReply] = useState<IntegrationTestReply | null>(null);

  const errorText: ErrorText = (message) => {
    if (message === INVALID_URL) return t('queueIntegrations.validation.url');
    if (message === INVALID_CREDENTIALS) return t('queueIntegrations.validation.credentials');
    return translateValidation(t, message);
  };

  const save = useMutation({
    mutationFn: (values: IntegrationFormValues) =>
      record
        ? queueIntegrationsApi.update(record.id, integrationBody(values))
        : queueIntegrationsApi.create(integrationBody(values)),
    onSuccess: async () => {
      toast.success(t(record ? 'queueIntegrations.edited' : 'queueIntegrations.added'));
      await queryClient.invalidateQueries({ queryKey: queryKeys.queueIntegrations.all });
      onClose();
    },
    onError: formErrorHandler(setError),
  });

  const test = useMutation({
    mutationFn: (values: IntegrationFormValues) =>
      queueIntegrationsApi.test(
        integrationTestBody(values, record?.id, testText.trim() || t('queueIntegrations.test.defaultText')),
      ),
    onMutate: () => setTestReply(null),
    onSuccess: (reply) => {
      setTestReply(reply);
      if (reply.ok) toast.success(t('queueIntegrations.tested'));
    },
    onError: (err) => {
      formErrorHandler(setError)(err);
      setTestReply({ ok: false, messages: [], actions: [], error: errorMessage(err) });
    },
  });

  return (
    <DialogForm
      onSubmit={handleSubmit((values) => save.mutate(values))}
      onCancel={onClose}
      testIdPrefix="integration-modal"
      editing={record !== null}
      pending={save.isPending}
    >
      <DialogContent dividers>
        <Stack spacing={2}>
          <Controller
            name="type"
            control={control}
            render={({ field }) => (
              <TextField
                {...field}
                onChange={(event) => {
                  field.onChange(event.target.value as IntegrationType);
                  setTestReply(null);
                }}
                select
                label={t('queueIntegrations.form.type')}
                fullWidth
                data-testid="integration-type"
                slotProps={{
                  select: {
                    renderValue: (value) => (
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        <IntegrationLogo type={value as IntegrationType} size={20} />
                        <span>{t(`queueIntegrations.types.${value as IntegrationType}`)}</span>
                      </Stack>
                    ),
                  },
                }}
              >
                {INTEGRATION_TYPES.map((option) => (
                  <MenuItem key={option} value={option} data-testid={`integration-type-option-${option}`}>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <IntegrationLogo type={option} size={20} />
                      <span>{t(`queueIntegrations.types.${option}`)}</span>
                    </Stack>
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <FormTextField
            control={control}
            name="name"
            label={t('queueIntegrations.form.name')}
            autoFocus
            fullWidth
            testId="integration-name"
          />
          {type === 'typebot' && <TypebotFields control={control} errorText={errorText} />}
          {SIGNED_TYPES.includes(type) && (
            <>
              <FormTextField
                control={control}
                name="urlN8N"
                label={t('queueIntegrations.form.url')}
                placeholder={type === 'n8n' ? 'https://n8n.exemplo.com.br/webhook/…' : 'https://exemplo.com.br/…'}
                helperText={t(`queueIntegrations.form.urlHelp.${type}`)}
                fullWidth
                testId="integration-url"
                errorText={errorText}
              />
              <SigningSecret record={record} />
            </>
          )}
          {type === 'dialogflow' && (
            <>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
                <FormTextField
                  control={control}
                  name="projectName"
                  label={t('queueIntegrations.form.projectName')}
                  helperText={t('queueIntegrations.form.projectNameHelp')}
                  fullWidth
                  testId="integration-project-name"
                  errorText={errorText}
                />
                <Controller
                  name="language"
                  control={control}
                  render={({ field }) => (
                    <TextField
                      {...field}
                      select
                      label={t('queueIntegrations.form.language')}
                      fullWidth
                      data-testid="integration-language"
                    >
                      {INTEGRATION_LANGUAGES.map((language) => (
                        <MenuItem
                          key={language}
                          value={language}
                          data-testid={`integration-language-option-${language}`}
                        >
                          {t(`queueIntegrations.languages.${language}`)}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              </Stack>
              <FormTextField
                control={control}
                name="jsonContent"
                label={t('queueIntegrations.form.jsonContent')}
                placeholder={
                  storedCredentials
                    ? t('queueIntegrations.form.jsonContentKeep', { email: record?.jsonContentClientEmail })
                    : t('queueIntegrations.form.jsonContentPlaceholder')
                }
                helperText={t(
                  storedCredentials
                    ? 'queueIntegrations.form.jsonContentKeepHelp'
                    : 'queueIntegrations.form.jsonContentHelp',
                  { email: record?.jsonContentClientEmail },
                )}
                multiline
                minRows={4}
                maxRows={12}
                autoComplete="off"
                fullWidth
                testId="integration-json-content"
                errorText={errorText}
              />
            </>
          )}
          <Divider textAlign="left">
            <Typography variant="overline">{t('queueIntegrations.test.title')}</Typography>
          </Divider>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <TextField
              label={t('queueIntegrations.test.text')}
              helperText={t('queueIntegrations.test.help')}
              value={testText}
              onChange={(event) => setTestText(event.target.value)}
              fullWidth
              size="small"
              slotProps={{ htmlInput: { maxLength: 1000, 'data-testid': 'integration-test-text' } }}
            />
            <Button
              type="button"
              variant="outlined"
              startIcon={<PlayArrow />}
              disabled={test.isPending}
              onClick={handleSubmit((values) => test.mutate(values))}
              sx={{ flexShrink: 0 }}
              data-testid="integration-test"
            >
              {t('queueIntegrations.test.run')}
            </Button>
          </Stack>
          {testReply && <TestResult reply={testReply} />}
        </Stack>
      </DialogContent>
    </DialogForm>
  );
}

/** Add or edit a queue integration (spec part 2 §2, §3): the type first, then its fields. */
export function QueueIntegrationModal({
  open,
  record,
  onClose,
}: {
  open: boolean;
  record: QueueIntegration | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" data-testid="integration-modal">
      <DialogTitle>{t(record ? 'queueIntegrations.form.titleEdit' : 'queueIntegrations.form.titleAdd')}</DialogTitle>
      {open && <QueueIntegrationForm key={record?.id ?? 'new'} record={record} onClose={onClose} />}
    </Dialog>
  );
}
