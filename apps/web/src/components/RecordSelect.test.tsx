import { describe, expect, it } from 'vitest';
import { shownValue } from './RecordSelect';

describe('shownValue', () => {
  const queues = [{ id: 2 }, { id: 5 }];

  it('shows the stored record once its list holds it', () => {
    expect(shownValue(5, queues)).toBe(5);
  });

  it('shows none while the list loads, for a record gone from it, and for no record', () => {
    expect(shownValue(2, undefined)).toBe('');
    expect(shownValue(3, queues)).toBe('');
    expect(shownValue(null, queues)).toBe('');
    expect(shownValue('', queues)).toBe('');
  });
});
