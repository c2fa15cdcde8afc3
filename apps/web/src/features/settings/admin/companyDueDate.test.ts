import { describe, expect, it } from 'vitest';
import { dueDateTone, extendDueDate, isIsoDate } from './companyDueDate';

const today = new Date(2024, 2, 10);
/** The ISO date `days` from `today`. */
const inDays = (days: number) => {
  const d = new Date(2024, 2, 10 + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('dueDateTone (spec part 2 §9, read literally)', () => {
  it('is pale yellow exactly 5 days ahead', () => {
    expect(dueDateTone(inDays(5), today)).toBe('soon');
  });

  it('is orange from −3 to 4 days, both ends included', () => {
    for (const days of [-3, -2, -1, 0, 1, 2, 3, 4])
      expect(dueDateTone(inDays(days), today), String(days)).toBe('warning');
  });

  it('is red exactly 4 days past', () => {
    expect(dueDateTone(inDays(-4), today)).toBe('overdue');
  });

  it('leaves every other distance, no date and a malformed date uncoloured', () => {
    for (const days of [-30, -5, 6, 7, 60]) expect(dueDateTone(inDays(days), today), String(days)).toBeNull();
    expect(dueDateTone(null, today)).toBeNull();
    expect(dueDateTone('', today)).toBeNull();
    expect(dueDateTone('2024-02-30', today)).toBeNull();
  });

  it('counts calendar days across a month end', () => {
    expect(dueDateTone('2024-04-04', new Date(2024, 2, 30, 23, 59))).toBe('soon');
    expect(dueDateTone('2024-03-27', new Date(2024, 2, 31, 8, 0))).toBe('overdue');
  });
});

describe('extendDueDate ("+Vencimento")', () => {
  it('adds 1, 2, 3, 6 or 12 months by recurrence', () => {
    expect(extendDueDate('2024-03-15', 'MENSAL', today)).toBe('2024-04-15');
    expect(extendDueDate('2024-03-15', 'BIMESTRAL', today)).toBe('2024-05-15');
    expect(extendDueDate('2024-03-15', 'TRIMESTRAL', today)).toBe('2024-06-15');
    expect(extendDueDate('2024-03-15', 'SEMESTRAL', today)).toBe('2024-09-15');
    expect(extendDueDate('2024-03-15', 'ANUAL', today)).toBe('2025-03-15');
  });

  it('crosses the year and keeps to the last day of a shorter month', () => {
    expect(extendDueDate('2024-11-30', 'TRIMESTRAL', today)).toBe('2025-02-28');
    expect(extendDueDate('2024-01-31', 'MENSAL', today)).toBe('2024-02-29');
    expect(extendDueDate('2023-01-31', 'MENSAL', today)).toBe('2023-02-28');
    expect(extendDueDate('2024-12-31', 'MENSAL', today)).toBe('2025-01-31');
  });

  it('extends an overdue date from that date, and counts from today without a valid one', () => {
    expect(extendDueDate('2020-01-05', 'MENSAL', today)).toBe('2020-02-05');
    expect(extendDueDate('', 'MENSAL', today)).toBe('2024-04-10');
    expect(extendDueDate(null, 'ANUAL', today)).toBe('2025-03-10');
    expect(extendDueDate('31/12/2024', 'MENSAL', today)).toBe('2024-04-10');
  });
});

describe('isIsoDate', () => {
  it('accepts real yyyy-mm-dd dates only', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2024-2-9')).toBe(false);
    expect(isIsoDate(undefined)).toBe(false);
  });
});
