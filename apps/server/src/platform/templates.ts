import { zonedMinuteParts } from './time-zones.js';

/** The message variables of DOMAIN §6: automatic messages, quick replies and agent messages. */

export interface TemplateContext {
  contact: { name: string };
  ticket: { id: number };
  now: Date;
  /** IANA time zone of the company (setting `timezone`); an unknown zone falls back to the default. */
  timeZone: string;
}

interface LocalTime {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
}

const wallClock = zonedMinuteParts('en-GB', {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The wall-clock date and time of `now` in `timeZone`, zero-padded. */
export function localTime(now: Date, timeZone: string): LocalTime {
  const parts = wallClock(now, timeZone);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute };
}

/** Bom dia 05–11h, Boa tarde 12–17h, Boa noite otherwise. */
export function greetingOf(hour: number): string {
  if (hour >= 5 && hour < 12) return 'Bom dia';
  if (hour >= 12 && hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

/** Replaces the known `{{variables}}`; unknown ones are left as written. */
export function renderTemplate(text: string, ctx: TemplateContext): string {
  if (!text.includes('{{')) return text;
  const t = localTime(ctx.now, ctx.timeZone);
  const name = ctx.contact.name.trim();
  const values: Record<string, string> = {
    firstName: name.split(/\s+/)[0] ?? '',
    name,
    ms: greetingOf(Number(t.hour)),
    protocol: `${t.year}${t.month}${t.day}${ctx.ticket.id}`,
    date: `${t.day}/${t.month}/${t.year}`,
    hour: `${t.hour}:${t.minute}`,
  };
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) =>
    Object.hasOwn(values, key) ? values[key] : whole,
  );
}
