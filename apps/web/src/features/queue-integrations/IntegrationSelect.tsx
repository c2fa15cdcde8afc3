import Stack from '@mui/material/Stack';
import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/AuthContext';
import { planAllows } from '../../app/gates';
import { RecordSelect, type RecordSelectProps } from '../../components/RecordSelect';
import { IntegrationLogo } from './IntegrationLogo';
import { useQueueIntegrationOptions } from './queueIntegrationsApi';

/**
 * The queue integration (typebot, n8n, webhook, Dialogflow) that answers on a connection or queue
 * (DOMAIN §1.7, §17), or none, each with its logo. Not shown when the plan has no
 * `useIntegrations`: the field then keeps its value.
 */
export function IntegrationSelect<T extends FieldValues>({ helperText, ...field }: RecordSelectProps<T>) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const allowed = user !== null && planAllows(user, 'useIntegrations');
  const integrations = useQueueIntegrationOptions(allowed);
  if (!allowed) return null;
  return (
    <RecordSelect
      {...field}
      label={t('queueIntegrations.select.label')}
      none={t('queueIntegrations.select.none')}
      helperText={helperText ?? t('queueIntegrations.select.help')}
      records={integrations.data}
      option={(i) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <IntegrationLogo type={i.type} size={20} title={t(`queueIntegrations.types.${i.type}`)} />
          <span>{i.name}</span>
        </Stack>
      )}
    />
  );
}
