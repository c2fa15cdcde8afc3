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
