import { can, type SettingKey, settingValues } from '@balcao/shared';
import Alert from '@mui/material/Alert';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { useSessionUser } from '../../app/AuthContext';
import { toastError } from '../../components/toastError';
import { IntegrationsSettings } from './IntegrationsSettings';
import { settingsApi, settingValue, useSettings } from './settingsApi';
import { withSetting } from './settingsCache';

/** The settings of the "Opções" tab, in the order shown, with their allowed values. */
export const OPTION_KEYS = [
  'userRating',
  'scheduleType',
  'call',
  'CheckMsgIsGroup',
  'sendGreetingAccepted',
  'sendMsgTransfTicket',
  'chatBotType',
  'userCreation',
  'closeConfirmation',
] as const satisfies readonly SettingKey[];

type OptionKey = (typeof OPTION_KEYS)[number];

function optionValues(key: OptionKey): readonly string[] {
  return settingValues[key].options;
}

/** One select per setting; a change is saved at once. Read-only for non-admins; admins also get the integrations. */
export function OptionsTab() {
  const { t } = useTranslation();
  const me = useSessionUser();
  const editable = can(me.profile, 'settings:edit');
  const queryClient = useQueryClient();
  const settings = useSettings();

  const update = useMutation({
    mutationFn: ({ key, value }: { key: OptionKey; value: string }) => settingsApi.update(key, value),
    onSuccess: (setting) => {
      queryClient.setQueryData(queryKeys.settings, withSetting(queryClient.getQueryData(queryKeys.settings), setting));
      toast.success(t('settings.saved'));
    },
    onError: toastError,
  });

  if (settings.isPending) {
    return (
      <Stack spacing={2}>
        {OPTION_KEYS.slice(0, 4).map((key) => (
          <Skeleton key={key} variant="rounded" height={56} />
        ))}
      </Stack>
    );
  }

  return (
    <Stack spacing={2}>
      {!editable && <Alert severity="info">{t('settings.readOnly')}</Alert>}
      <Grid container spacing={2}>
        {OPTION_KEYS.map((key) => {
          const saving = update.isPending && update.variables?.key === key;
          return (
            <Grid key={key} size={{ xs: 12, sm: 6, md: 4 }}>
              <TextField
                select
                fullWidth
                label={t(`settings.options.${key}.label`)}
                value={saving ? update.variables.value : settingValue(settings.data, key)}
                disabled={!editable || saving}
                helperText={saving ? t('settings.saving') : ' '}
                onChange={(event) => update.mutate({ key, value: event.target.value })}
                data-testid={`setting-${key}`}
              >
                {optionValues(key).map((value) => (
                  <MenuItem key={value} value={value} data-testid={`setting-${key}-${value}`}>
                    {t(`settings.options.${key}.${value}`)}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
          );
        })}
      </Grid>
      {editable && settings.data && <IntegrationsSettings settings={settings.data} />}
    </Stack>
  );
}
