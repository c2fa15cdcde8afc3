import { describe, expect, it } from 'vitest';
import { titleWithCount } from './title';

describe('titleWithCount', () => {
  it('puts the count in front, replacing a former one, and drops it at zero', () => {
    expect(titleWithCount('Atendimentos · Balcão', 3)).toBe('(3) Atendimentos · Balcão');
    expect(titleWithCount('(3) Atendimentos · Balcão', 1)).toBe('(1) Atendimentos · Balcão');
    expect(titleWithCount('(1) Balcão', 0)).toBe('Balcão');
    expect(titleWithCount('', 2)).toBe('(2)');
    expect(titleWithCount('(2)', 2)).toBe('(2)');
  });
});
