import { type ConnectionStatus, WARNING_STATUSES, type Whatsapp, type WhatsappEvent } from '@balcao/shared';

/**
 * The connections list after a live event of `company-{id}-whatsapp` or
 * `company-{id}-whatsappSession`: an updated connection (or session) replaces its row or is
 * added at the end; a deleted one is removed. A new default clears the flag of the others.
 */
export function applyWhatsappEvent(list: Whatsapp[] | undefined, event: WhatsappEvent): Whatsapp[] | undefined {
  if (!list) return list;
  if (event.action === 'delete') {
    const id = event.whatsappId ?? event.whatsapp?.id;
    return id === undefined ? list : list.filter((w) => w.id !== id);
  }
  const changed = event.whatsapp ?? event.session;
  if (!changed) return list;
  const listed = list.some((w) => w.id === changed.id);
  const next = listed ? list.map((w) => (w.id === changed.id ? { ...w, ...changed } : w)) : [...list, changed];
  return changed.isDefault
    ? next.map((w) => (w.id === changed.id || !w.isDefault ? w : { ...w, isDefault: false }))
    : next;
}

/** True when a connection needs attention: the drawer's warning badge (spec §2, "Shell"). */
export function needsAttention(status: ConnectionStatus): boolean {
  return WARNING_STATUSES.includes(status);
}

export function hasConnectionWarning(list: readonly Whatsapp[] | undefined): boolean {
  return (list ?? []).some((w) => needsAttention(w.status));
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** `dd/MM/yy HH:mm` in local time (the "last update" column). */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${pad(d.getFullYear() % 100)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
