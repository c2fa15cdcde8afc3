import { describe, expect, it } from 'vitest';
import { credentialsBanner } from './credentials-banner.js';

describe('credentialsBanner', () => {
  it('frames the e-mail and password in a box of even width', () => {
    const banner = credentialsBanner('admin@balcao.local', 's3cr3t-Pass');
    const box = banner.split('\n').filter(Boolean);
    expect(box[0].startsWith('╔')).toBe(true);
    expect(box.at(-1)?.startsWith('╚')).toBe(true);
    expect(new Set(box.map((l) => l.length)).size).toBe(1);
    expect(banner).toContain('E-mail:   admin@balcao.local');
    expect(banner).toContain('Password: s3cr3t-Pass');
  });
});
