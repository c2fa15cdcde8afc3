import { isEncryptedSettingKey, type Setting, type SettingKey } from '@balcao/shared';
import Clear from '@mui/icons-material/Clear';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { toastError } from '../../components/toastError';
import { settingsApi } from './settingsApi';
import { withSetting } from './settingsCache';

/** The integration settings, in the order shown (admins only: plain users never receive them). */
export const INTEGRATION_KEYS = [
  'ipixc',
  'tokenixc',
  'ipmkauth',
  'clientidmkauth',
  'clientsecretmkauth',
  'asaas',
] as const satisfies readonly SettingKey[];

type IntegrationKey = (typeof INTEGRATION_KEYS)[number];
type Save = (key: IntegrationKey, value: string, done?: () => void) => void;

const blurOnEnter = (event: KeyboardEvent) => {
  if (event.key === 'Enter') (event.target as HTMLElement).blur();
};

/**
 * The IXC, MK-Auth and Asaas settings. A host is shown and saved on blur when changed. A token is
 * write-only (DOMAIN §18): its input stays empty, a placeholder says whether one is set (with its
 * last four characters), it is sent only when something was typed, and the clear button removes it.
 */
export function IntegrationsSettings({ settings }: { settings: Setting[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const update = useMutation({
    mutationFn: ({ key, value }: { key: IntegrationKey; value: string; done?: () => void }) =>
      settingsApi.update(key, value),
    onSuccess: (setting, { done }) => {
      queryClient.setQueryData(queryKeys.settings, withSetting(queryClient.getQueryData(queryKeys.settings), setting));
      done?.();
      toast.success(t('settings.saved'));
    },
    onError: toastError,
  });
  const save: Save = (key, value, done) => update.mutate({ key, value, done });
  const shown = INTEGRATION_KEYS.flatMap((key) => {
    const setting = settings.find((s) => s.key === key);
    return setting ? [{ key, setting }] : [];
  });
  if (shown.length === 0) return null;

  return (
    <Stack spacing={2} data-testid="settings-integrations">
      <div>
        <Typography variant="subtitle1">{t('settings.integrations.title')}</Typography>
        <Typography variant="body2" color="text.secondary">
          {t('settings.integrations.hint')}
        </Typography>
      </div>
      <Grid container spacing={2}>
        {shown.map(({ key, setting }) => {
          const saving = update.isPending && update.variables?.key === key;
          return (
            <Grid key={key} size={{ xs: 12, sm: 6, md: 4 }}>
              {isEncryptedSettingKey(key) ? (
                <TokenField settingKey={key} setting={setting} saving={saving} save={save} />
              ) : (
                <HostField
                  key={`${key}:${setting.value}`}
                  settingKey={key}
                  setting={setting}
                  saving={saving}
                  save={save}
                />
              )}
            </Grid>
          );
        })}
      </Grid>
    </Stack>
  );
}

interface FieldProps {
  settingKey: IntegrationKey;
  setting: Setting;
  saving: boolean;
  save: Save;
}

function HostField({ settingKey, setting, saving, save }: FieldProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(setting.value);
  return (
    <TextField
      fullWidth
      label={t(`settings.integrations.fields.${settingKey}`)}
      value={draft}
      disabled={saving}
      helperText={saving ? t('settings.saving') : ' '}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={() => {
        if (draft.trim() !== setting.value) save(settingKey, draft.trim());
      }}
      onKeyDown={blurOnEnter}
      slotProps={{ htmlInput: { 'data-testid': `setting-${settingKey}`, spellCheck: false } }}
    />
  );
}

function TokenField({ settingKey, setting, saving, save }: FieldProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const placeholder = !setting.isSet
    ? ''
    : setting.last4
      ? t('settings.integrations.configuredLast4', { last4: setting.last4 })
      : t('settings.integrations.configured');
  const label = t(`settings.integrations.fields.${settingKey}`);
  return (
    <TextField
      fullWidth
      type="password"
      autoComplete="new-password"
      label={label}
      value={draft}
      placeholder={placeholder}
      disabled={saving}
      helperText={saving ? t('settings.saving') : ' '}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={() => {
        if (draft !== '') save(settingKey, draft, () => setDraft(''));
      }}
      onKeyDown={blurOnEnter}
      slotProps={{
        inputLabel: setting.isSet ? { shrink: true } : undefined,
        htmlInput: { 'data-testid': `setting-${settingKey}`, spellCheck: false },
        input: {
          endAdornment: setting.isSet ? (
            <InputAdornment position="end">
              <Tooltip title={t('settings.integrations.clear')}>
                <IconButton
                  edge="end"
                  disabled={saving}
                  onClick={() => save(settingKey, '', () => setDraft(''))}
                  aria-label={`${t('settings.integrations.clear')}: ${label}`}
                  data-testid={`setting-${settingKey}-clear`}
                >
                  <Clear fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ) : undefined,
        },
      }}
    />
  );
}
