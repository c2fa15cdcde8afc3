import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasValidCrc, parseBrCode } from './pix-code.js';
import { PaymentProviderError } from './provider.js';
import {
  createSandboxProvider,
  isSandboxProvider,
  type SandboxCharge,
  type SandboxChargeStore,
  sandboxWebhook,
} from './sandbox.js';

const SECRET = 'sandbox-test-secret';

/** What the database table does, in memory (tests only). */
function memoryStore() {
  const rows = new Map<string, SandboxCharge>();
  const store: SandboxChargeStore & { rows: typeof rows } = {
    rows,
    async save(charge) {
      if (rows.has(charge.chargeId)) throw new Error('duplicate charge id');
      const same = [...rows.values()].find((r) => r.txid === charge.txid);
      if (same) return { ...same };
      rows.set(charge.chargeId, { ...charge });
      return { ...charge };
    },
    async find(chargeId) {
      const row = rows.get(chargeId);
      return row ? { ...row } : null;
    },
    async markPaid(chargeId, amount) {
      const row = rows.get(chargeId);
      if (row && row.paidAmount === null) rows.set(chargeId, { ...row, paidAmount: amount, paidAt: new Date() });
    },
  };
  return store;
}

function setup(now = () => Date.now()) {
  const store = memoryStore();
  const provider = createSandboxProvider({ store, secret: SECRET, now });
  return { store, provider };
}

const request = (over: Partial<{ amount: number; expiresAt: Date; txid: string }> = {}) => ({
  txid: over.txid ?? 'inv42-2025-07-a1b2c3',
  amount: over.amount ?? 149.9,
  description: 'Plano Pro — julho',
  payer: { email: 'admin@empresa.com.br', name: 'Ana Souza' },
  expiresAt: over.expiresAt ?? new Date(Date.now() + 3600_000),
});

describe('sandbox provider', () => {
  it('creates a stored charge with a valid Pix BR Code for the amount', async () => {
    const { store, provider } = setup();
    const charge = await provider.createCharge(request());
    expect(charge.chargeId).toMatch(/^sbx_[0-9a-f]{24}$/);
    expect(hasValidCrc(charge.copyPaste)).toBe(true);
    const fields = parseBrCode(charge.copyPaste);
    expect(fields['54']).toBe('149.90');
    expect(fields['59']).toBe('BALCAO SANDBOX');
    expect(fields['60']).toBe('SAO PAULO');
    expect(fields['62.05']).toBe('inv42202507a1b2c3');
    expect(store.rows.get(charge.chargeId)).toMatchObject({
      txid: 'inv42-2025-07-a1b2c3',
      amount: 149.9,
      paidAmount: null,
      copyPaste: charge.copyPaste,
    });
    // The txid is the idempotency key: the same one gives the same charge, another a new one.
    expect((await provider.createCharge(request())).chargeId).toBe(charge.chargeId);
    const other = await provider.createCharge(request({ txid: 'inv43-2025-07-d4e5f6' }));
    expect(other.chargeId).not.toBe(charge.chargeId);
  });

  it('reports pending, then paid with the amount, and the txid', async () => {
    const { provider } = setup();
    const { chargeId } = await provider.createCharge(request());
    expect(await provider.getCharge(chargeId)).toEqual({
      chargeId,
      status: 'pending',
      paidAmount: null,
      txid: 'inv42-2025-07-a1b2c3',
    });
    await provider.pay(chargeId);
    expect(await provider.getCharge(chargeId)).toEqual({
      chargeId,
      status: 'paid',
      paidAmount: 149.9,
      txid: 'inv42-2025-07-a1b2c3',
    });
  });

  it('reads its charges from the store (another instance sees them)', async () => {
    const { store, provider } = setup();
    const { chargeId } = await provider.createCharge(request());
    const restarted = createSandboxProvider({ store, secret: SECRET });
    await restarted.pay(chargeId, 100);
    expect(await provider.getCharge(chargeId)).toMatchObject({ status: 'paid', paidAmount: 100 });
  });

  it('pay: a partial amount is what getCharge reports; the first payment wins', async () => {
    const { provider } = setup();
    const { chargeId } = await provider.createCharge(request());
    await provider.pay(chargeId, 50);
    await provider.pay(chargeId, 149.9);
    expect(await provider.getCharge(chargeId)).toMatchObject({ status: 'paid', paidAmount: 50 });
  });

  it('pay returns a webhook that verifyWebhook accepts, with a new event id each time', async () => {
    const { provider } = setup();
    const { chargeId } = await provider.createCharge(request());
    const first = await provider.pay(chargeId);
    const again = await provider.pay(chargeId);
    const a = provider.verifyWebhook({ headers: first.headers, query: {}, rawBody: first.rawBody });
    const b = provider.verifyWebhook({ headers: again.headers, query: {}, rawBody: again.rawBody });
    expect(a?.chargeId).toBe(chargeId);
    expect(b?.chargeId).toBe(chargeId);
    expect(a?.eventId).toMatch(/^sbxevt_/);
    expect(a?.eventId).not.toBe(b?.eventId);
  });

  it('expires an unpaid charge after its expiry, and refuses to pay it', async () => {
    let now = Date.now();
    const { provider } = setup(() => now);
    const { chargeId } = await provider.createCharge(request({ expiresAt: new Date(now + 60_000) }));
    now += 61_000;
    expect(await provider.getCharge(chargeId)).toMatchObject({ status: 'expired', paidAmount: null });
    await expect(provider.pay(chargeId)).rejects.toMatchObject({ name: 'PaymentProviderError', status: 410 });
  });

  it('a paid charge stays paid after its expiry', async () => {
    let now = Date.now();
    const { provider } = setup(() => now);
    const { chargeId } = await provider.createCharge(request({ expiresAt: new Date(now + 60_000) }));
    await provider.pay(chargeId);
    now += 3600_000;
    expect(await provider.getCharge(chargeId)).toMatchObject({ status: 'paid', paidAmount: 149.9 });
  });

  it('unknown charges are a 404 PaymentProviderError', async () => {
    const { provider } = setup();
    await expect(provider.getCharge('sbx_nope')).rejects.toBeInstanceOf(PaymentProviderError);
    await expect(provider.getCharge('../../etc')).rejects.toMatchObject({ status: 404 });
    await expect(provider.pay('sbx_nope')).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a non-positive amount', async () => {
    const { provider } = setup();
    await expect(provider.createCharge(request({ amount: 0 }))).rejects.toBeInstanceOf(PaymentProviderError);
  });

  it('needs a secret', () => {
    expect(() => createSandboxProvider({ store: memoryStore(), secret: '' })).toThrow(/SANDBOX_PAYMENTS_SECRET/);
  });

  it('is recognised by isSandboxProvider', () => {
    expect(isSandboxProvider(setup().provider)).toBe(true);
  });
});

describe('sandbox webhooks', () => {
  const { provider } = setup();
  const notice = { eventId: 'evt_1', chargeId: 'sbx_0123456789abcdef01234567' };

  it('sandboxWebhook signs the raw body with HMAC-SHA256', () => {
    const delivery = sandboxWebhook(SECRET, notice);
    expect(JSON.parse(delivery.rawBody)).toEqual(notice);
    const hex = createHmac('sha256', SECRET).update(delivery.rawBody).digest('hex');
    expect(delivery.headers['x-sandbox-signature']).toBe(`sha256=${hex}`);
    expect(provider.verifyWebhook({ headers: delivery.headers, query: {}, rawBody: delivery.rawBody })).toEqual(notice);
  });

  it('accepts the header in any case', () => {
    const delivery = sandboxWebhook(SECRET, notice);
    const headers = { 'X-Sandbox-Signature': delivery.headers['x-sandbox-signature'] };
    expect(provider.verifyWebhook({ headers, query: {}, rawBody: delivery.rawBody })).toEqual(notice);
  });

  it('rejects a missing, malformed or wrong signature', () => {
    const delivery = sandboxWebhook(SECRET, notice);
    const forged = sandboxWebhook('another-secret', notice);
    const check = (headers: Record<string, string>, rawBody = delivery.rawBody) =>
      provider.verifyWebhook({ headers, query: {}, rawBody });
    expect(check({})).toBeNull();
    expect(check({ 'x-sandbox-signature': 'sha256=zz' })).toBeNull();
    expect(check({ 'x-sandbox-signature': delivery.headers['x-sandbox-signature'].slice(7) })).toBeNull();
    expect(check(forged.headers)).toBeNull();
  });

  it('rejects a body changed after signing (signature is over the bytes)', () => {
    const delivery = sandboxWebhook(SECRET, notice);
    const tampered = delivery.rawBody.replace('sbx_0123', 'sbx_9999');
    expect(provider.verifyWebhook({ headers: delivery.headers, query: {}, rawBody: tampered })).toBeNull();
    const reformatted = JSON.stringify(JSON.parse(delivery.rawBody), null, 2);
    expect(provider.verifyWebhook({ headers: delivery.headers, query: {}, rawBody: reformatted })).toBeNull();
  });

  it('rejects a correctly signed body without the fields', () => {
    const rawBody = JSON.stringify({ eventId: 'evt_1' });
    const headers = { 'x-sandbox-signature': `sha256=${createHmac('sha256', SECRET).update(rawBody).digest('hex')}` };
    expect(provider.verifyWebhook({ headers, query: {}, rawBody })).toBeNull();
  });
});
