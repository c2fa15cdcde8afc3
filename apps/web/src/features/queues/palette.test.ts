import { QUEUE_COLOR_PALETTE } from '@balcao/shared';
import { describe, expect, it } from 'vitest';
import { paletteSwatches } from './palette';

describe('paletteSwatches', () => {
  it('offers the 50 fixed colours, distinct', () => {
    expect(QUEUE_COLOR_PALETTE).toHaveLength(50);
    expect(new Set(QUEUE_COLOR_PALETTE.map((c) => c.toUpperCase())).size).toBe(50);
  });

  it('marks the colours of the other queues as taken, not the edited queue own colour', () => {
    const [first, second, third] = QUEUE_COLOR_PALETTE;
    const queues = [
      { id: 1, color: first.toLowerCase() },
      { id: 2, color: second },
      { id: 3, color: '#123456' },
    ];
    const taken = (editing: number | null) =>
      paletteSwatches(queues, editing)
        .filter((s) => s.taken)
        .map((s) => s.color);
    expect(taken(null)).toEqual([first, second]);
    expect(taken(2)).toEqual([first]);
    expect(paletteSwatches(queues, null).find((s) => s.color === third)?.taken).toBe(false);
  });
});
