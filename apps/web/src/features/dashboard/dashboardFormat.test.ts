import { describe, expect, it } from 'vitest';
import { attendantTime, cardTime, defaultFilter, hourLabel, queryOf } from './dashboardFormat';

describe('dashboard formats', () => {
  it('shows minutes as HHh MMm on the cards and Xh Ym in the table, rounding to the minute', () => {
    expect(cardTime(0)).toBe('00h 00m');
    expect(cardTime(7.4)).toBe('00h 07m');
    expect(cardTime(59.6)).toBe('01h 00m');
    expect(cardTime(135)).toBe('02h 15m');
    expect(cardTime(6000)).toBe('100h 00m');
    expect(cardTime(null)).toBeNull();
    expect(attendantTime(135)).toBe('2h 15m');
    expect(attendantTime(null)).toBeNull();
  });

  it('labels the 24 hourly bars 01:00 … 00:00', () => {
    const labels = Array.from({ length: 24 }, (_, h) => hourLabel(h));
    expect(labels[0]).toBe('01:00');
    expect(labels[12]).toBe('13:00');
    expect(labels[23]).toBe('00:00');
  });

  it('starts with the first day of the month up to today', () => {
    expect(defaultFilter(new Date(2026, 1, 17, 23, 30))).toEqual({
      mode: 'date',
      from: '2026-02-01',
      to: '2026-02-17',
    });
  });

  it('asks for a filter when neither days nor dates are set', () => {
    expect(queryOf({ mode: 'period', days: null })).toBeNull();
    expect(queryOf({ mode: 'date', from: '', to: '' })).toBeNull();
    expect(queryOf({ mode: 'period', days: 7 })).toEqual({ days: 7 });
    expect(queryOf({ mode: 'date', from: '2026-02-01', to: '' })).toEqual({ date_from: '2026-02-01' });
    expect(queryOf({ mode: 'date', from: '2026-02-01', to: '2026-02-10' })).toEqual({
      date_from: '2026-02-01',
      date_to: '2026-02-10',
    });
  });
});
