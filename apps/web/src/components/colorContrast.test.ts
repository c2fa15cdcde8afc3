import { QUEUE_COLOR_PALETTE } from '@balcao/shared';
import { describe, expect, it } from 'vitest';
import { readableTextOn, relativeLuminance } from './colorContrast';

/** WCAG contrast ratio of two luminances. */
const ratio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

describe('readableTextOn', () => {
  it('puts white on dark colours and black on light ones', () => {
    expect(readableTextOn('#000000')).toBe('#FFFFFF');
    expect(readableTextOn('#5300EB')).toBe('#FFFFFF');
    expect(readableTextOn('#FFFFFF')).toBe('#000000');
    expect(readableTextOn('#FCDC00')).toBe('#000000');
    expect(readableTextOn('#fff')).toBe('#000000');
    expect(readableTextOn('#1273DE80')).toBe('#FFFFFF');
  });

  it('leaves unreadable colours to the theme', () => {
    expect(readableTextOn('red')).toBeUndefined();
    expect(readableTextOn('')).toBeUndefined();
    expect(readableTextOn(null)).toBeUndefined();
  });

  it('reaches at least 4.5:1 on every palette colour whose best contrast allows it', () => {
    for (const color of QUEUE_COLOR_PALETTE) {
      const luminance = relativeLuminance(color) ?? Number.NaN;
      const chosen = readableTextOn(color) === '#FFFFFF' ? 1 : 0;
      const best = Math.max(ratio(luminance, 1), ratio(luminance, 0));
      expect(ratio(luminance, chosen), color).toBe(best);
      expect(best, color).toBeGreaterThanOrEqual(4.5);
    }
  });
});
