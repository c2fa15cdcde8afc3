import { describe, expect, it } from 'vitest';
import { withoutNul } from './untrusted-text.js';

describe('withoutNul', () => {
  it('strips NUL from every string and key, however deep, and leaves buffers and dates alone', () => {
    const file = Buffer.from([0, 1, 2]);
    const at = new Date('2026-12-02T21:00:00Z');
    const received = {
      body: 'o\u0000i',
      media: { fileName: 'a\u0000.pdf', file },
      at,
      list: ['x\u0000', 1],
      'k\u0000': 1,
    };
    const clean = withoutNul(received);
    expect(clean).toEqual({ body: 'oi', media: { fileName: 'a.pdf', file }, at, list: ['x', 1], k: 1 });
    expect(clean.media.file).toBe(file);
    expect(received.body).toBe('o\u0000i');
  });

  it('gives back a value without NUL as it is, not a copy', () => {
    const received = { body: 'oi', media: { fileName: 'a.pdf' }, list: ['x'] };
    expect(withoutNul(received)).toBe(received);
  });
});
