import { CONNECTION_BADGE_DELAY_MS } from '@balcao/shared';
import Badge from '@mui/material/Badge';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWhatsapps } from './connectionsApi';
import { hasConnectionWarning } from './connectionsCache';
import { useConnectionsRealtime } from './useConnectionsRealtime';

/**
 * True 2 s (CONNECTION_BADGE_DELAY_MS) after the connections list started to hold a connection
 * in a warning status (qrcode, PAIRING, DISCONNECTED, TIMEOUT, OPENING); false at once when none
 * is left. Live through the connection events.
 */
export function useConnectionWarning(): boolean {
  const whatsapps = useWhatsapps();
  useConnectionsRealtime();
  const warning = hasConnectionWarning(whatsapps.data);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!warning) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), CONNECTION_BADGE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [warning]);
  return shown;
}

/** The connections menu icon with its warning badge (spec §2, "Shell"). */
export function ConnectionWarningBadge({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const warning = useConnectionWarning();
  if (!warning) return children;
  return (
    <Badge color="error" badgeContent="!" title={t('connections.warningBadge')} data-testid="connections-warning-badge">
      {children}
    </Badge>
  );
}
