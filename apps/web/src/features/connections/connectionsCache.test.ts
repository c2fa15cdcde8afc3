import { describe, expect, it } from 'vitest';
import { applyWhatsappEvent, hasConnectionWarning } from './connectionsCache';
import { whatsapp } from './testing/fixtures';

describe('applyWhatsappEvent', () => {
  const a = whatsapp({ id: 1, isDefault: true });
  const b = whatsapp({ id: 2 });

  it('merges a session update into its row', () => {
    const next = applyWhatsappEvent([a, b], { action: 'update', session: { ...b, status: 'qrcode', qrcode: 'q' } });
    expect(next?.[1]).toMatchObject({ id: 2, status: 'qrcode', qrcode: 'q' });
  });

  it('adds an unknown connection and moves the default flag', () => {
    const next = applyWhatsappEvent([a, b], { action: 'update', whatsapp: whatsapp({ id: 3, isDefault: true }) });
    expect(next?.map((w) => [w.id, w.isDefault])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
  });

  it('removes a deleted connection', () => {
    expect(applyWhatsappEvent([a, b], { action: 'delete', whatsappId: 1 })?.map((w) => w.id)).toEqual([2]);
  });

  it('flags the warning statuses', () => {
    expect(hasConnectionWarning([a])).toBe(false);
    for (const status of ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'] as const) {
      expect(hasConnectionWarning([a, whatsapp({ status })])).toBe(true);
    }
  });
});
