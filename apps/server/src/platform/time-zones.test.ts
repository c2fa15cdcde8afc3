import { describe, expect, it, vi } from 'vitest';
import { localTime } from './templates.js';

/** The wall clock kept per zone and minute (zonedMinuteParts), as the message variables read it. */
const at = (iso: string, zone: string) => {
  const t = localTime(new Date(iso), zone);
  return `${t.year}-${t.month}-${t.day} ${t.hour}:${t.minute}`;
};

describe('the wall clock kept per zone and minute', () => {
  it('gives each zone its own time, and a new minute a new time', () => {
    expect(at('2026-12-02T21:00:10Z', 'America/Sao_Paulo')).toBe('2026-12-02 18:00');
    expect(at('2026-12-02T21:00:50Z', 'Asia/Kolkata')).toBe('2026-12-03 02:30');
    expect(at('2026-12-02T21:00:59.999Z', 'America/Sao_Paulo')).toBe('2026-12-02 18:00');
    expect(at('2026-12-02T21:01:00Z', 'America/Sao_Paulo')).toBe('2026-12-02 18:01');
    // An earlier instant after a later one is its own minute too.
    expect(at('2026-12-01T09:15:00Z', 'America/Sao_Paulo')).toBe('2026-12-01 06:15');
  });

  it('follows a change of offset at its minute', () => {
    // New York leaves daylight time at 06:00 UTC on 2026-11-01: 01:59 EDT, then 01:00 EST.
    expect(at('2026-11-01T05:59:30Z', 'America/New_York')).toBe('2026-11-01 01:59');
    expect(at('2026-11-01T06:00:00Z', 'America/New_York')).toBe('2026-11-01 01:00');
  });

  it('formats once per zone and minute however many messages ask', () => {
    const formatToParts = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    try {
      for (let s = 0; s < 60; s += 5) at(`2026-12-02T22:00:${String(s).padStart(2, '0')}Z`, 'Europe/Lisbon');
      expect(formatToParts).toHaveBeenCalledTimes(1);
    } finally {
      formatToParts.mockRestore();
    }
  });
});
