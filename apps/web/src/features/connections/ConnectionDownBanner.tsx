import { CONNECTION_BADGE_DELAY_MS, type Whatsapp } from '@balcao/shared';
import Alert from '@mui/material/Alert';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../app/AuthContext';
import { useWhatsapps } from './connectionsApi';
import { needsAttention } from './connectionsCache';

interface Viewer {
  profile: 'admin' | 'user';
  queues: { id: number }[];
}

/**
 * Connections that were up (they have a number) and dropped, among those serving the viewer:
 * admins hear of every one, agents of those of their queues and of those with no queue.
 */
export function droppedConnections(list: readonly Whatsapp[] | undefined, viewer: Viewer): Whatsapp[] {
  const mine = new Set(viewer.queues.map((q) => q.id));
  return (list ?? []).filter(
    (w) =>
      Boolean(w.number) &&
      needsAttention(w.status) &&
      (viewer.profile === 'admin' || w.queues.length === 0 || w.queues.some((q) => mine.has(q.id))),
  );
}

/** A banner while a connection the user answers on is down (after the badge's 2 s, so a reconnect does not flash it). */
export function ConnectionDownBanner() {
  const { t } = useTranslation();
  const viewer = useSessionUser();
  const dropped = droppedConnections(useWhatsapps().data, viewer);
  const names = dropped.map((w) => w.name).join(', ');
  const [shown, setShown] = useState('');
  useEffect(() => {
    if (!names) {
      setShown('');
      return;
    }
    const timer = setTimeout(() => setShown(names), CONNECTION_BADGE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [names]);
  if (!shown) return null;
  return (
    <Alert severity="warning" square data-testid="connection-down-banner">
      {t('connections.downBanner', { names: shown, count: dropped.length })}
    </Alert>
  );
}
