import { describe, expect, it } from 'vitest';
import { dateTimeInputToIso, defaultSendAt, formatSendAt, toDateTimeInput, truncateBody } from './format';

describe('schedule formatting', () => {
  it('cuts the body at 25 characters', () => {
    expect(truncateBody('Curta')).toBe('Curta');
    expect(truncateBody('a'.repeat(25))).toBe('a'.repeat(25));
    expect(truncateBody('Lembrete da sua consulta amanhã às 10h')).toBe('Lembrete da sua consulta ...');
  });

  it('shows sendAt as DD/MM/YYYY HH:mm:ss in local time', () => {
    const date = new Date(2026, 0, 5, 9, 3, 7);
    expect(formatSendAt(date.toISOString())).toBe('05/01/2026 09:03:07');
  });

  it('defaults to one hour from now and round-trips the datetime-local value', () => {
    const now = new Date(2026, 11, 31, 23, 30);
    expect(defaultSendAt(now)).toBe('2027-01-01T00:30');
    expect(toDateTimeInput(new Date(dateTimeInputToIso('2026-03-04T05:06')))).toBe('2026-03-04T05:06');
  });
});
