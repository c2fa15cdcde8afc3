import { CAMPAIGN_EDIT_LEAD_MS, type Campaign, settingDefaults } from '@balcao/shared';
import { useSessionUser } from '../../app/AuthContext';

const pad = (n: number | string) => String(n).padStart(2, '0');

/** An IANA zone the browser knows, else the default one (an unknown zone would make Intl throw). */
function knownZone(timeZone: string | undefined): string {
  if (!timeZone) return settingDefaults.timezone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return settingDefaults.timezone;
  }
}

/** The company's time zone (setting `timezone`): campaign times are typed and shown in it. */
export function useCompanyTimeZone(): string {
  const me = useSessionUser();
  return knownZone(me.company.settings.find((s) => s.key === 'timezone')?.value);
}

/** The wall clock of an instant in `timeZone`. */
function wallClock(iso: string, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: knownZone(timeZone),
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return { year: parts.year, month: parts.month, day: parts.day, hour: pad(parts.hour), minute: parts.minute };
}

/** DD/MM/YYYY HH:mm in the company's time zone (spec part 2 §2, the list's dates). */
export function formatCampaignDate(iso: string, timeZone: string): string {
  const { year, month, day, hour, minute } = wallClock(iso, timeZone);
  return `${day}/${month}/${year} ${hour}:${minute}`;
}

/** The value of a `datetime-local` input (YYYY-MM-DDTHH:mm) for an instant, in the company's time zone. */
export function toScheduleInput(iso: string | null, timeZone: string): string {
  if (!iso) return '';
  const { year, month, day, hour, minute } = wallClock(iso, timeZone);
  return `${year}-${month}-${day}T${hour}:${minute}`;
}

/** A `datetime-local` value as the API wants it: `YYYY-MM-DD HH:mm:ss`, read in the company's time zone. */
export function scheduleInputToBody(value: string): string {
  const trimmed = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(trimmed)) return trimmed;
  return `${trimmed.replace('T', ' ')}:00`;
}

/**
 * What the dialog lets change (spec part 2 §4): everything while INATIVA, or PROGRAMADA more than an
 * hour ahead; only the messages once CANCELADA; nothing otherwise.
 */
export type CampaignEditMode = 'full' | 'messages' | 'readOnly';

export function campaignEditMode(
  campaign: Pick<Campaign, 'status' | 'scheduledAt'>,
  now: number = Date.now(),
): CampaignEditMode {
  if (campaign.status === 'INATIVA') return 'full';
  if (campaign.status === 'PROGRAMADA') {
    const at = campaign.scheduledAt ? Date.parse(campaign.scheduledAt) : Number.NaN;
    return at - now > CAMPAIGN_EDIT_LEAD_MS ? 'full' : 'readOnly';
  }
  return campaign.status === 'CANCELADA' ? 'messages' : 'readOnly';
}
