import { describe, expect, it } from 'vitest';
import { formatTicketTime, shortName } from './format';

describe('formatTicketTime', () => {
  const now = new Date(2024, 4, 10, 15, 0);
  it('shows HH:mm for today', () => {
    expect(formatTicketTime(new Date(2024, 4, 10, 9, 5).toISOString(), now)).toBe('09:05');
  });
  it('shows dd/MM/yyyy for other days', () => {
    expect(formatTicketTime(new Date(2024, 4, 9, 23, 59).toISOString(), now)).toBe('09/05/2024');
  });
});

describe('shortName', () => {
  it('cuts names at 10 characters plus an ellipsis on narrow screens only', () => {
    expect(shortName('Maria Aparecida', true)).toBe('Maria Apar...');
    expect(shortName('Maria Aparecida', false)).toBe('Maria Aparecida');
    expect(shortName('Maria', true)).toBe('Maria');
  });
});
