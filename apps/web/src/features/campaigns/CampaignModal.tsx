import { CAMPAIGN_MESSAGES, type Campaign, RESERVED_CAMPAIGN_VARIABLES } from '@balcao/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import AttachFile from '@mui/icons-material/AttachFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import {
  type Control,
  Controller,
  type FieldErrors,
  type Path,
  type Resolver,
  useForm,
  useWatch,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../components/FormFields';
import { MediaAttachment } from '../../components/MediaAttachment';
import { serverFieldErrors } from '../../components/serverFieldErrors';
import { useMediaRecordForm } from '../../components/useMediaRecordForm';
import { translateValidation } from '../../i18n/validation';
import { useWhatsapps } from '../connections/connectionsApi';
import { useTagOptions } from '../tickets/ticketsApi';
import {
  type CampaignFormValues,
  campaignFormDefaults,
  campaignFormSchema,
  campaignMessagesFormSchema,
  MESSAGE_FIELDS,
  type MessageField,
} from './campaignForm';
import {
  type CampaignBody,
  campaignKeys,
  campaignsApi,
  useCampaignSettings,
  useContactListOptions,
  useFileListOptions,
} from './campaignsApi';
import { type CampaignEditMode, campaignEditMode, useCompanyTimeZone } from './format';
import { useCampaignActions } from './useCampaignActions';

type Option = { id: number; name: string };
type ChoiceField = 'contactListId' | 'tagListId' | 'whatsappId' | 'fileListId';

interface FieldProps {
  control: Control<CampaignFormValues>;
  label: string;
  testId: string;
  locked: boolean;
}

/** One of the dialog's selects of records; `emptyLabel` offers "none". */
function ChoiceSelect({
  control,
  name,
  label,
  testId,
  locked,
  options,
  emptyLabel,
  onPicked,
}: FieldProps & {
  name: ChoiceField;
  options: Option[];
  emptyLabel?: string;
  onPicked?: (id: number | '') => void;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          select
          fullWidth
          label={label}
          disabled={locked}
          onChange={(event) => {
            const value = event.target.value === '' ? '' : Number(event.target.value);
            field.onChange(value);
            onPicked?.(value);
          }}
          error={Boolean(fieldState.error)}
          helperText={translateValidation(t, fieldState.error?.message)}
          // "None" is a choice of its own: shown, not an empty box.
          slotProps={
            emptyLabel === undefined ? undefined : { select: { displayEmpty: true }, inputLabel: { shrink: true } }
          }
          data-testid={testId}
        >
          {emptyLabel !== undefined && (
            <MenuItem value="">
              <em>{emptyLabel}</em>
            </MenuItem>
          )}
          {/* A chosen record whose options are still loading. */}
          {field.value !== '' && !options.some((o) => o.id === field.value) && (
            <MenuItem value={field.value} sx={{ display: 'none' }}>
              {t('common.loading')}
            </MenuItem>
          )}
          {options.map((option) => (
            <MenuItem key={option.id} value={option.id}>
              {option.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

/** A text field of the form, or its value in a disabled field when the campaign no longer lets it change. */
function TextInput({
  control,
  name,
  label,
  testId,
  locked,
  multiline,
  helperText,
  placeholder,
}: FieldProps & {
  name: Path<CampaignFormValues>;
  multiline?: boolean;
  helperText?: ReactNode;
  placeholder?: string;
}) {
  const rows = multiline ? { multiline: true, minRows: 4, maxRows: 12 } : {};
  if (!locked)
    return (
      <FormTextField
        control={control}
        name={name}
        label={label}
        testId={testId}
        fullWidth
        helperText={helperText}
        placeholder={placeholder}
        {...rows}
      />
    );
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <TextField
          value={field.value}
          label={label}
          disabled
          fullWidth
          {...rows}
          slotProps={{ htmlInput: { 'data-testid': testId } }}
        />
      )}
    />
  );
}

/** The start time: a `datetime-local` input read in the company's time zone. */
function ScheduledAtField({ control, label, testId, locked }: FieldProps) {
  const { t } = useTranslation();
  return (
    <Controller
      name="scheduledAt"
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          type="datetime-local"
          fullWidth
          label={label}
          disabled={locked}
          error={Boolean(fieldState.error)}
          helperText={translateValidation(t, fieldState.error?.message)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': testId } }}
        />
      )}
    />
  );
}

/** Adds the option a record embeds when the options list does not have it (not loaded yet). */
function withCurrent(options: Option[] | undefined, current: Option | null | undefined): Option[] {
  const list = options ?? [];
  return current && !list.some((o) => o.id === current.id) ? [current, ...list] : list;
}

interface CampaignFormProps {
  record: Campaign | null;
  mode: CampaignEditMode;
  onClose: () => void;
}

function CampaignForm({ record, mode, onClose }: CampaignFormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const timeZone = useCompanyTimeZone();
  const [tab, setTab] = useState<number>(CAMPAIGN_MESSAGES[0]);
  // The resolver hands `handleSubmit` the API's body (see `toBody`), not the fields as typed.
  const { control, handleSubmit, setError, setValue } = useForm<CampaignFormValues>({
    resolver: zodResolver(
      mode === 'messages' ? campaignMessagesFormSchema : campaignFormSchema,
    ) as unknown as Resolver<CampaignFormValues>,
    defaultValues: campaignFormDefaults(record, timeZone),
  });
  const confirmation = useWatch({ control, name: 'confirmation' });
  const whatsappId = useWatch({ control, name: 'whatsappId' });

  const whatsapps = useWhatsapps();
  const contactLists = useContactListOptions();
  const tags = useTagOptions();
  const fileLists = useFileListOptions();
  const settings = useCampaignSettings();
  const actions = useCampaignActions();

  const providerOf = (id: number | '') =>
    whatsapps.data?.find((w) => w.id === id)?.provider ??
    (record?.whatsapp?.id === id ? record.whatsapp.provider : undefined);
  const cloud = providerOf(whatsappId) === 'cloud';

  const { save, attachment } = useMediaRecordForm({
    record,
    api: campaignsApi,
    savedText: t('campaignModal.success'),
    mediaRemovedText: t('campaignModal.mediaRemoved'),
    refresh: () => queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
    onSaved: onClose,
  });

  const locked = (name: keyof CampaignFormValues) =>
    mode === 'readOnly' || (mode === 'messages' && !MESSAGE_FIELDS.includes(name as MessageField));
  const field = (name: keyof CampaignFormValues) => ({ control, locked: locked(name) });

  const contactListOptions = withCurrent(contactLists.data, record?.contactList);
  const whatsappOptions = withCurrent(whatsapps.data, record?.whatsapp);
  /** A select of records in the fields' grid: `campaign-${testId}`. */
  const choice = (
    name: ChoiceField,
    testId: string,
    label: string,
    options: Option[],
    extra: { emptyLabel?: string; onPicked?: (id: number | '') => void } = {},
  ) => (
    <Grid size={{ xs: 12, sm: name === 'fileListId' ? 6 : 4 }}>
      <ChoiceSelect
        {...field(name)}
        {...extra}
        name={name}
        label={label}
        testId={`campaign-${testId}`}
        options={options}
      />
    </Grid>
  );

  const variables = [...RESERVED_CAMPAIGN_VARIABLES, ...(settings.data?.variables ?? []).map((v) => v.key)]
    .map((key) => `{${key}}`)
    .join(', ');

  const onInvalid = (errors: FieldErrors<CampaignFormValues>) => {
    const withError = CAMPAIGN_MESSAGES.find((n) => `message${n}` in errors || `confirmationMessage${n}` in errors);
    if (withError) setTab(withError);
  };

  const onSubmit = handleSubmit(
    (values) =>
      save.mutate(values as unknown as CampaignBody, {
        onError: (err) =>
          serverFieldErrors<CampaignFormValues>(err).forEach(({ name, message }, index) => {
            setError(
              name.split('.')[0] as Path<CampaignFormValues>,
              { type: 'server', message },
              {
                shouldFocus: index === 0,
              },
            );
          }),
      }),
    onInvalid,
  );

  const busy = save.isPending || actions.pending;

  return (
    <Box
      component="form"
      noValidate
      onSubmit={mode === 'readOnly' ? (event) => event.preventDefault() : onSubmit}
      // flex: a full-screen (phone) dialog keeps its buttons at the bottom.
      sx={{ display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0 }}
    >
      <DialogContent dividers>
        <Stack spacing={2}>
          {mode === 'readOnly' && record && (
            <Alert severity="info" data-testid="campaign-read-only-note">
              {t('campaignModal.readOnlyNote')}
            </Alert>
          )}
          {mode === 'messages' && (
            <Alert severity="info" data-testid="campaign-messages-only-note">
              {t('campaignModal.messagesOnlyNote')}
            </Alert>
          )}
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 8 }}>
              <TextInput {...field('name')} name="name" label={t('campaignModal.name')} testId="campaign-name" />
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <Controller
                name="confirmation"
                control={control}
                render={({ field: confirmationField }) => (
                  <TextField
                    select
                    fullWidth
                    label={t('campaignModal.confirmation')}
                    value={confirmationField.value ? 'true' : 'false'}
                    onChange={(event) => confirmationField.onChange(event.target.value === 'true')}
                    onBlur={confirmationField.onBlur}
                    disabled={locked('confirmation')}
                    data-testid="campaign-confirmation"
                  >
                    <MenuItem value="false">{t('campaigns.disabled')}</MenuItem>
                    <MenuItem value="true">{t('campaigns.enabled')}</MenuItem>
                  </TextField>
                )}
              />
            </Grid>
            {choice('contactListId', 'contact-list', t('campaignModal.contactList'), contactListOptions)}
            {choice('tagListId', 'tag', t('campaignModal.tag'), tags.data ?? [], {
              emptyLabel: t('campaignModal.none'),
            })}
            {choice('whatsappId', 'connection', t('campaignModal.connection'), whatsappOptions, {
              onPicked: (id) => {
                // A template only goes through the Cloud API: another connection drops it.
                if (providerOf(id) === 'cloud') return;
                for (const name of ['templateName', 'templateLanguage', 'templateVariables'] as const)
                  setValue(name, '');
              },
            })}
            <Grid size={{ xs: 12, sm: 6 }}>
              <ScheduledAtField
                {...field('scheduledAt')}
                label={t('campaignModal.scheduledAt')}
                testId="campaign-scheduled-at"
              />
            </Grid>
            {choice('fileListId', 'file-list', t('campaignModal.fileList'), fileLists.data ?? [], {
              emptyLabel: t('campaignModal.none'),
            })}
          </Grid>

          <Box>
            <Tabs
              value={tab}
              onChange={(_, value: number) => setTab(value)}
              variant="scrollable"
              allowScrollButtonsMobile
              sx={{ borderBottom: 1, borderColor: 'divider' }}
            >
              {CAMPAIGN_MESSAGES.map((n) => (
                <Tab key={n} value={n} label={t('campaignModal.messageTab', { n })} data-testid={`campaign-tab-${n}`} />
              ))}
            </Tabs>
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              spacing={2}
              role="tabpanel"
              sx={{ pt: 2 }}
              data-testid={`campaign-panel-${tab}`}
            >
              <TextInput
                key={`message${tab}`}
                {...field(`message${tab}` as MessageField)}
                name={`message${tab}` as MessageField}
                label={t('campaignModal.message', { n: tab })}
                testId={`campaign-message-${tab}`}
                multiline
              />
              {confirmation && (
                <TextInput
                  key={`confirmationMessage${tab}`}
                  {...field(`confirmationMessage${tab}` as MessageField)}
                  name={`confirmationMessage${tab}` as MessageField}
                  label={t('campaignModal.confirmationMessage', { n: tab })}
                  testId={`campaign-confirmation-message-${tab}`}
                  multiline
                />
              )}
            </Stack>
            <Typography
              variant="caption"
              color="text.secondary"
              component="p"
              sx={{ mt: 1 }}
              data-testid="campaign-variables-hint"
            >
              {t('campaignModal.variablesHint', { variables })}
            </Typography>
          </Box>

          {cloud && (
            <Stack spacing={2} data-testid="campaign-template">
              <Alert severity="info">{t('campaignModal.templateNote')}</Alert>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextInput
                  {...field('templateName')}
                  name="templateName"
                  label={t('campaignModal.templateName')}
                  testId="campaign-template-name"
                />
                <TextInput
                  {...field('templateLanguage')}
                  name="templateLanguage"
                  label={t('campaignModal.templateLanguage')}
                  testId="campaign-template-language"
                  placeholder="pt_BR"
                />
              </Stack>
              <TextInput
                {...field('templateVariables')}
                name="templateVariables"
                label={t('campaignModal.templateVariables')}
                testId="campaign-template-variables"
                helperText={t('campaignModal.templateVariablesHelp')}
                multiline
              />
            </Stack>
          )}

          {mode === 'full' ? (
            <MediaAttachment
              {...attachment}
              testIdPrefix="campaign"
              icon={<AttachFile />}
              labels={{
                attach: t('campaignModal.attach'),
                replace: t('campaignModal.replaceMedia'),
                none: t('campaignModal.noMedia'),
              }}
            />
          ) : (
            attachment.mediaName && (
              <Typography variant="body2" data-testid="campaign-media-name">
                {t('campaignModal.media', { name: attachment.mediaName })}
              </Typography>
            )
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {record?.status === 'CANCELADA' && (
          <Button
            color="success"
            disabled={busy}
            onClick={() => actions.restart.mutate(record)}
            data-testid="campaign-modal-restart"
          >
            {t('campaigns.restart')}
          </Button>
        )}
        {record?.status === 'EM_ANDAMENTO' && (
          <Button
            color="warning"
            disabled={busy}
            onClick={() => actions.cancel.mutate(record)}
            data-testid="campaign-modal-stop"
          >
            {t('campaignModal.stop')}
          </Button>
        )}
        <Box sx={{ flex: 1 }} />
        <Button onClick={onClose} color="inherit" disabled={save.isPending} data-testid="campaign-modal-close">
          {t('common.close')}
        </Button>
        {mode !== 'readOnly' && (
          <Button
            type="submit"
            variant="contained"
            disabled={busy}
            startIcon={save.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
            data-testid="campaign-modal-submit"
          >
            {t(record ? 'common.save' : 'common.add')}
          </Button>
        )}
      </DialogActions>
    </Box>
  );
}

interface CampaignModalProps {
  open: boolean;
  /** The campaign to edit or show; null adds one. */
  record: Campaign | null;
  onClose: () => void;
}

/**
 * Add, edit or show a campaign (spec part 2 §2, §4): editable while INATIVA or PROGRAMADA more
 * than an hour ahead, only its messages once CANCELADA, read-only otherwise.
 */
export function CampaignModal({ open, record, onClose }: CampaignModalProps) {
  const { t } = useTranslation();
  const mode = record ? campaignEditMode(record) : 'full';
  const title = !record ? 'titleAdd' : mode === 'readOnly' ? 'titleView' : 'titleEdit';
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" data-testid="campaign-modal">
      <DialogTitle data-testid="campaign-modal-title">{t(`campaignModal.${title}`)}</DialogTitle>
      {open && <CampaignForm key={`${record?.id ?? 'new'}-${mode}`} record={record} mode={mode} onClose={onClose} />}
    </Dialog>
  );
}
