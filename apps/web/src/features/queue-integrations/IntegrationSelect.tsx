import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/AuthContext';
import { planAllows } from '../../app/gates';
import { IntegrationLogo } from './IntegrationLogo';
import { useQueueIntegrationOptions } from './queueIntegrationsApi';

interface IntegrationSelectProps<T extends FieldValues> {
  control: Control<T>;
  /** A `number | null` field: the integration's id, or none. */
  name: FieldPath<T>;
  /** The `data-testid` of the field; each option is `${testId}-option-${id}`. */
  testId: string;
  helperText?: string;
}

/**
 * The queue integration (typebot, n8n, webhook, Dialogflow) that answers on a connection or queue
 * (DOMAIN §1.7, §17), or none. Not shown when the plan has no `useIntegrations`: the field then
 * keeps its value.
 */
export function IntegrationSelect<T extends FieldValues>({
  control,
  name,
  testId,
  helperText,
}: IntegrationSelectProps<T>) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const allowed = user !== null && planAllows(user, 'useIntegrations');
  const integrations = useQueueIntegrationOptions(allowed);
  if (!allowed) return null;
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => {
        const known = integrations.data?.some((i) => i.id === field.value) ?? false;
        return (
          <TextField
            select
            label={t('queueIntegrations.select.label')}
            // An integration not (yet) in the list shows as none rather than as an out-of-range value.
            value={field.value !== null && known ? field.value : ''}
            onChange={(event) => field.onChange(event.target.value === '' ? null : Number(event.target.value))}
            helperText={helperText ?? t('queueIntegrations.select.help')}
            fullWidth
            data-testid={testId}
          >
            <MenuItem value="">
              <em>{t('queueIntegrations.select.none')}</em>
            </MenuItem>
            {(integrations.data ?? []).map((i) => (
              <MenuItem key={i.id} value={i.id} data-testid={`${testId}-option-${i.id}`}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <IntegrationLogo type={i.type} size={20} title={t(`queueIntegrations.types.${i.type}`)} />
                  <span>{i.name}</span>
                </Stack>
              </MenuItem>
            ))}
          </TextField>
        );
      }}
    />
  );
}
