import type { Whatsapp } from '@balcao/shared';
import PhoneAndroid from '@mui/icons-material/PhoneAndroid';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSessionUser } from '../../app/AuthContext';
import { passesGate } from '../../app/gates';
import { routeOf } from '../../app/routes';

/** The way to the Sandbox page (the contact's phone), shown while a sandbox connection exists. */
export function SandboxLink({ connections }: { connections: readonly Whatsapp[] }) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const route = routeOf('/sandbox');
  if (!connections.some((w) => w.provider === 'sandbox')) return null;
  if (route && !passesGate(route.gate, user)) return null;
  return (
    <Button
      component={RouterLink}
      to="/sandbox"
      variant="outlined"
      startIcon={<PhoneAndroid />}
      data-testid="connections-sandbox-link"
    >
      {t('connections.openSandbox')}
    </Button>
  );
}
