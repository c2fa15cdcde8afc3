import { describe, expect, it } from 'vitest';
import { importPercent } from './ContactImport';

describe('importPercent', () => {
  it('is the share of processed rows, 0 before the total is known, never past 100', () => {
    expect(importPercent({ processed: 0, total: 0 })).toBe(0);
    expect(importPercent({ processed: 250, total: 1000 })).toBe(25);
    expect(importPercent({ processed: 5, total: 3 })).toBe(100);
  });
});
