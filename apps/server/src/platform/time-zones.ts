export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

/** A company's zones come from its settings: few in use, and this bounds a flood of made-up ones. */
const MAX_ZONES = 64;

/**
 * Formatters of one locale and options, one per time zone, built on first use: building an
 * Intl.DateTimeFormat costs more than the automation step that uses it. An unknown zone (a
 * setting nobody validated) gets the default zone's formatter.
 */
export function zonedFormatter(
  locale: string,
  options: Intl.DateTimeFormatOptions,
): (timeZone: string) => Intl.DateTimeFormat {
  const byZone = new Map<string, Intl.DateTimeFormat>();
  const build = (timeZone: string) => {
    try {
      return new Intl.DateTimeFormat(locale, { ...options, timeZone });
    } catch {
      return new Intl.DateTimeFormat(locale, { ...options, timeZone: DEFAULT_TIME_ZONE });
    }
  };
  return (timeZone) => {
    let format = byZone.get(timeZone);
    if (!format) {
      if (byZone.size >= MAX_ZONES) byZone.clear();
      format = build(timeZone);
      byZone.set(timeZone, format);
    }
    return format;
  };
}

/** The zone when it names one, else the default (an unknown zone would fail a query or a format). */
export function knownZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return DEFAULT_TIME_ZONE;
  }
}

/** The parts of `at` in `format`, by type (year, month, weekday…). */
export const partsOf = (format: Intl.DateTimeFormat, at: Date): Record<string, string> =>
  Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));

/**
 * `formatToParts` of a format to the minute, `(now, timeZone)` → parts by type, kept per zone for the
 * last minute asked: every inbound message asks for the wall clock (greeting, hours, holidays) and
 * formatting costs more than the step itself. Zones' offsets are whole minutes (since 1972), so the
 * parts of one minute are those of any instant in it. The parts are shared: read them, never change them.
 */
export function zonedMinuteParts(
  locale: string,
  options: Intl.DateTimeFormatOptions,
): (now: Date, timeZone: string) => Readonly<Record<string, string>> {
  const format = zonedFormatter(locale, options);
  const last = new Map<string, { minute: number; parts: Record<string, string> }>();
  return (now, timeZone) => {
    const minute = Math.floor(now.getTime() / 60_000);
    const known = last.get(timeZone);
    if (known?.minute === minute) return known.parts;
    const parts = partsOf(format(timeZone), now);
    if (last.size >= MAX_ZONES) last.clear();
    last.set(timeZone, { minute, parts });
    return parts;
  };
}
