import { partsOf, zonedFormatter } from './time-zones.js';

const formatter = zonedFormatter('en-US', {
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The UTC offset (ms) of `timeZone` at `at`. */
function offsetMs(at: Date, timeZone: string): number {
  const parts = partsOf(formatter(timeZone), at);
  const asUtc = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** An instant with an offset as given; a wall-clock time without one is read in the company's time zone. */
export function instantOf(value: string, timeZone: string): Date {
  const iso = value.replace(' ', 'T');
  if (/(Z|[+-]\d{2}:?\d{2})$/.test(iso)) return new Date(iso);
  const naive = new Date(`${iso}Z`);
  // Twice: the offset at the guessed instant may differ across a DST change.
  const first = new Date(naive.getTime() - offsetMs(naive, timeZone));
  return new Date(naive.getTime() - offsetMs(first, timeZone));
}
