import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeMercadoPago, startFakeMercadoPago } from '../../../../test/fakes/mercadopago.js';
import { createPaymentProvider } from './index.js';
import {
  createMercadoPagoProvider,
  MERCADOPAGO_SIGNATURE_TOLERANCE_MS,
  mercadoPagoDate,
  mercadoPagoManifest,
} from './mercadopago.js';
import { hasValidCrc } from './pix-code.js';
import { type PaymentProvider, PaymentProviderError, type WebhookRequest } from './provider.js';
import type { SandboxCharge } from './sandbox.js';

let fake: FakeMercadoPago;
let provider: PaymentProvider;

beforeAll(async () => {
  fake = await startFakeMercadoPago();
  provider = createMercadoPagoProvider({
    baseUrl: fake.url,
    accessToken: fake.accessToken,
    webhookSecret: fake.webhookSecret,
  });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const expiresAt = new Date('2031-03-10T15:30:00.000Z');
const request = (txid = 'inv7p202507x9') => ({
  txid,
  amount: 149.9,
  description: 'Balcão — Plano Pro (julho)',
  payer: { email: 'admin@empresa.com.br', name: 'Ana Maria Souza' },
  expiresAt,
});

describe('createCharge', () => {
  it('POSTs a Pix payment with the token, the txid as idempotency key and external reference', async () => {
    const charge = await provider.createCharge(request());
    expect(fake.requests).toHaveLength(1);
    const [sent] = fake.requests;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/payments');
    expect(sent.headers.authorization).toBe(`Bearer ${fake.accessToken}`);
    expect(sent.headers['x-idempotency-key']).toBe('inv7p202507x9');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body).toEqual({
      transaction_amount: 149.9,
      description: 'Balcão — Plano Pro (julho)',
      payment_method_id: 'pix',
      external_reference: 'inv7p202507x9',
      date_of_expiration: '2031-03-10T12:30:00.000-03:00',
      payer: { email: 'admin@empresa.com.br', first_name: 'Ana', last_name: 'Maria Souza' },
    });

    const payment = fake.payments.get(charge.chargeId)!;
    expect(charge.chargeId).toBe(String(payment.id));
    expect(charge.copyPaste).toBe(
      (payment.point_of_interaction as { transaction_data: { qr_code: string } }).transaction_data.qr_code,
    );
    expect(hasValidCrc(charge.copyPaste)).toBe(true);
    expect(charge.expiresAt.getTime()).toBe(expiresAt.getTime());
  });

  it('the same txid answers the same payment (idempotency)', async () => {
    const first = await provider.createCharge(request());
    const again = await provider.createCharge(request());
    const other = await provider.createCharge(request('inv7p202507y0'));
    expect(again.chargeId).toBe(first.chargeId);
    expect(again.copyPaste).toBe(first.copyPaste);
    expect(other.chargeId).not.toBe(first.chargeId);
    expect(fake.payments.size).toBe(2);
  });

  it('a one-word name is only first_name; the amount is rounded to cents', async () => {
    await provider.createCharge({ ...request(), amount: 10.005 + 0.000001, payer: { email: 'a@b.co', name: 'Ana' } });
    expect(fake.requests[0].body).toMatchObject({
      transaction_amount: 10.01,
      payer: { email: 'a@b.co', first_name: 'Ana' },
    });
    expect(fake.requests[0].body?.payer).not.toHaveProperty('last_name');
  });

  it('an error answer is a PaymentProviderError with the status and without the token', async () => {
    fake.script({ status: 500, message: 'internal error' });
    const error = await provider.createCharge(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect(error).toMatchObject({ status: 500 });
    expect(String((error as Error).message)).not.toContain(fake.accessToken);
  });

  it('a wrong token is a 401 PaymentProviderError', async () => {
    const wrong = createMercadoPagoProvider({ baseUrl: fake.url, accessToken: 'APP_USR-wrong', webhookSecret: 'x' });
    const error = await wrong.createCharge(request()).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PaymentProviderError', status: 401 });
    expect((error as Error).message).not.toContain('APP_USR-wrong');
  });

  it('times out with a PaymentProviderError', async () => {
    const slow = createMercadoPagoProvider({
      baseUrl: fake.url,
      accessToken: fake.accessToken,
      webhookSecret: fake.webhookSecret,
      timeoutMs: 200,
    });
    fake.script({ hang: true });
    await expect(slow.createCharge(request())).rejects.toThrow(/did not answer within 200 ms/);
  });

  it('an unreachable API is a PaymentProviderError without the token', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const gone = createMercadoPagoProvider({
      baseUrl: `http://127.0.0.1:${port}`,
      accessToken: fake.accessToken,
      webhookSecret: 'x',
    });
    const error = await gone.getCharge('1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect((error as Error).message).not.toContain(fake.accessToken);
  });

  it('a payment without a Pix code is an error', async () => {
    const local = createServer((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 1, status: 'pending' }));
    });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    const odd = createMercadoPagoProvider({
      baseUrl: `http://127.0.0.1:${(local.address() as AddressInfo).port}`,
      accessToken: 't',
      webhookSecret: 's',
    });
    await expect(odd.createCharge(request())).rejects.toThrow(/without a Pix code/);
    await new Promise<void>((resolve) => local.close(() => resolve()));
  });
});

describe('getCharge', () => {
  it('GETs the payment with the token; pending → pending', async () => {
    const { chargeId } = await provider.createCharge(request());
    const state = await provider.getCharge(chargeId);
    expect(fake.requests[1]).toMatchObject({ method: 'GET', path: `/v1/payments/${chargeId}` });
    expect(fake.requests[1].headers.authorization).toBe(`Bearer ${fake.accessToken}`);
    expect(state).toEqual({ chargeId, status: 'pending', paidAmount: null, txid: 'inv7p202507x9' });
  });

  it('approved → paid with the amount; a partial payment reports what was paid', async () => {
    const { chargeId } = await provider.createCharge(request());
    fake.approve(chargeId);
    expect(await provider.getCharge(chargeId)).toEqual({
      chargeId,
      status: 'paid',
      paidAmount: 149.9,
      txid: 'inv7p202507x9',
    });
    fake.approve(chargeId, 100);
    expect(await provider.getCharge(chargeId)).toMatchObject({ status: 'paid', paidAmount: 100 });
  });

  it('expired (cancelled/expired) → expired', async () => {
    const { chargeId } = await provider.createCharge(request());
    fake.expire(chargeId);
    expect(await provider.getCharge(chargeId)).toMatchObject({ status: 'expired', paidAmount: null });
  });

  it.each([
    ['in_process', 'pending_review_manual', 'pending'],
    ['cancelled', 'by_collector', 'cancelled'],
    ['rejected', 'cc_rejected_other_reason', 'cancelled'],
    ['refunded', 'refunded', 'cancelled'],
    ['expired', 'expired', 'expired'],
  ])('%s/%s → %s', async (status, detail, expected) => {
    const { chargeId } = await provider.createCharge(request());
    Object.assign(fake.payments.get(chargeId)!, { status, status_detail: detail });
    expect(await provider.getCharge(chargeId)).toMatchObject({ status: expected, paidAmount: null });
  });

  it('an unknown payment is a 404 PaymentProviderError', async () => {
    await expect(provider.getCharge('999')).rejects.toMatchObject({ name: 'PaymentProviderError', status: 404 });
  });

  it('an id that is not one never reaches the API', async () => {
    await expect(provider.getCharge('../users/me')).rejects.toBeInstanceOf(PaymentProviderError);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('verifyWebhook', () => {
  const asRequest = (d: { query: Record<string, string>; headers: Record<string, string>; rawBody: string }) =>
    ({ query: d.query, headers: d.headers, rawBody: d.rawBody }) satisfies WebhookRequest;

  it('accepts a delivery signed as Mercado Pago signs it', () => {
    const delivery = fake.webhook(1320000001);
    expect(provider.verifyWebhook(asRequest(delivery))).toEqual({
      eventId: String(delivery.notificationId),
      chargeId: '1320000001',
    });
  });

  it('accepts a millisecond ts', () => {
    const delivery = fake.webhook(1320000001, { tsUnit: 'ms' });
    expect(delivery.headers['x-signature']).toMatch(/^ts=\d{13},v1=[0-9a-f]{64}$/);
    expect(provider.verifyWebhook(asRequest(delivery))?.chargeId).toBe('1320000001');
  });

  it('rejects a wrong signature', () => {
    expect(provider.verifyWebhook(asRequest(fake.webhook(1320000001, { signature: 'wrong' })))).toBeNull();
  });

  it('rejects a signature made for another payment (data.id swapped)', () => {
    const delivery = fake.webhook(1320000001);
    const swapped = { ...delivery, query: { ...delivery.query, 'data.id': '1320000002' } };
    expect(provider.verifyWebhook(asRequest(swapped))).toBeNull();
  });

  it('rejects a ts older than 5 minutes (replay), and one too far ahead', () => {
    expect(provider.verifyWebhook(asRequest(fake.webhook(1320000001, { signature: 'stale' })))).toBeNull();
    const ahead = fake.webhook(1320000001, { at: Date.now() + MERCADOPAGO_SIGNATURE_TOLERANCE_MS + 60_000 });
    expect(provider.verifyWebhook(asRequest(ahead))).toBeNull();
  });

  it('the replay window follows the clock', () => {
    let now = Date.now();
    const clocked = createMercadoPagoProvider({
      baseUrl: fake.url,
      accessToken: fake.accessToken,
      webhookSecret: fake.webhookSecret,
      now: () => now,
    });
    const delivery = fake.webhook(1320000001, { at: now });
    now += 4 * 60_000;
    expect(clocked.verifyWebhook(asRequest(delivery))).not.toBeNull();
    now += 2 * 60_000;
    expect(clocked.verifyWebhook(asRequest(delivery))).toBeNull();
  });

  it('rejects missing headers or query', () => {
    const delivery = fake.webhook(1320000001);
    expect(provider.verifyWebhook(asRequest(fake.webhook(1320000001, { signature: 'none' })))).toBeNull();
    expect(provider.verifyWebhook(asRequest(fake.webhook(1320000001, { dropRequestId: true })))).toBeNull();
    expect(provider.verifyWebhook({ ...asRequest(delivery), headers: {} })).toBeNull();
    expect(provider.verifyWebhook({ ...asRequest(delivery), query: {} })).toBeNull();
    expect(
      provider.verifyWebhook({ ...asRequest(delivery), query: { id: '1320000001', topic: 'payment' } }),
    ).toBeNull();
  });

  it('rejects malformed x-signature headers', () => {
    const delivery = fake.webhook(1320000001);
    const [, ts, v1] = /^ts=(\d+),v1=([0-9a-f]+)$/.exec(delivery.headers['x-signature'])!;
    for (const bad of [`v1=${v1}`, `ts=${ts}`, `ts=${ts},v1=${v1.slice(2)}`, `ts=abc,v1=${v1}`, 'garbage']) {
      expect(
        provider.verifyWebhook({ ...asRequest(delivery), headers: { ...delivery.headers, 'x-signature': bad } }),
      ).toBeNull();
    }
  });

  it('only payment notifications count', () => {
    expect(provider.verifyWebhook(asRequest(fake.webhook(1320000001, { type: 'merchant_order' })))).toBeNull();
    expect(
      provider.verifyWebhook(asRequest(fake.webhook(1320000001, { type: 'subscription_preapproval' }))),
    ).toBeNull();
  });

  it('rejects a body that names another payment than the signed data.id', () => {
    const delivery = fake.webhook(1320000001);
    const body = JSON.parse(delivery.rawBody) as Record<string, unknown>;
    const rawBody = JSON.stringify({ ...body, data: { id: '1320000002' } });
    expect(provider.verifyWebhook({ ...asRequest(delivery), rawBody })).toBeNull();
  });

  it('without a notification id in the body, the event id is data.id:ts', () => {
    const delivery = fake.webhook(1320000001);
    const ts = /ts=(\d+)/.exec(delivery.headers['x-signature'])![1];
    const rawBody = JSON.stringify({ type: 'payment', data: { id: '1320000001' } });
    expect(provider.verifyWebhook({ ...asRequest(delivery), rawBody })).toEqual({
      eventId: `1320000001:${ts}`,
      chargeId: '1320000001',
    });
  });

  it('finds headers whatever their case, and alphanumeric data.id is signed lower-cased', () => {
    const ts = String(Math.floor(Date.now() / 1000));
    const manifest = mercadoPagoManifest({ dataId: 'ABC123', requestId: 'req-1', ts });
    expect(manifest).toBe(`id:abc123;request-id:req-1;ts:${ts};`);
    const v1 = createHmac('sha256', fake.webhookSecret).update(manifest).digest('hex');
    const notice = provider.verifyWebhook({
      headers: { 'X-Signature': `ts=${ts}, v1=${v1}`, 'X-Request-Id': 'req-1' },
      query: { 'data.id': 'ABC123', type: 'payment' },
      rawBody: JSON.stringify({ id: 'n-1', type: 'payment', data: { id: 'ABC123' } }),
    });
    expect(notice).toEqual({ eventId: 'n-1', chargeId: 'ABC123' });
  });

  it('leaves absent parts out of the manifest', () => {
    expect(mercadoPagoManifest({ dataId: '1', ts: '2' })).toBe('id:1;ts:2;');
    expect(mercadoPagoManifest({ requestId: 'r', ts: '2' })).toBe('request-id:r;ts:2;');
  });
});

describe('helpers and selection', () => {
  it('formats dates for Mercado Pago in Brasília time with the offset', () => {
    expect(mercadoPagoDate(new Date('2031-01-01T02:00:00.000Z'))).toBe('2030-12-31T23:00:00.000-03:00');
  });

  it('needs a token and a webhook secret', () => {
    expect(() => createMercadoPagoProvider({ baseUrl: fake.url, accessToken: '', webhookSecret: 's' })).toThrow(
      /MERCADOPAGO_ACCESS_TOKEN/,
    );
    expect(() => createMercadoPagoProvider({ baseUrl: fake.url, accessToken: 't', webhookSecret: '' })).toThrow(
      /MERCADOPAGO_WEBHOOK_SECRET/,
    );
  });

  it('createPaymentProvider picks the provider by PAYMENTS_PROVIDER', async () => {
    const store = { save: async (c: SandboxCharge) => c, find: async () => null, markPaid: async () => {} };
    const mp = createPaymentProvider(
      {
        PAYMENTS_PROVIDER: 'mercadopago',
        MERCADOPAGO_BASE_URL: fake.url,
        MERCADOPAGO_ACCESS_TOKEN: fake.accessToken,
        MERCADOPAGO_WEBHOOK_SECRET: fake.webhookSecret,
      },
      store,
    );
    expect(mp.name).toBe('mercadopago');
    expect((await mp.createCharge(request())).chargeId).toMatch(/^\d+$/);
    const sandbox = createPaymentProvider({ PAYMENTS_PROVIDER: 'sandbox', SANDBOX_PAYMENTS_SECRET: 's' }, store);
    expect(sandbox.name).toBe('sandbox');
    expect(() => createPaymentProvider({ PAYMENTS_PROVIDER: 'mercadopago' }, store)).toThrow(/ACCESS_TOKEN/);
    expect(() => createPaymentProvider({ PAYMENTS_PROVIDER: 'sandbox' }, store)).toThrow(/SANDBOX_PAYMENTS_SECRET/);
    expect(() => createPaymentProvider({ PAYMENTS_PROVIDER: 'efi' as never }, store)).toThrow(/Unknown/);
  });
});

describe('the fake delivers webhooks over HTTP as Mercado Pago does', () => {
  it('notify POSTs to the URL with data.id and type in the query and the signed headers', async () => {
    const received: { url: string; headers: Record<string, unknown>; body: string }[] = [];
    const receiver = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      received.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const url = new URL(req.url ?? '', 'http://x');
      const notice = provider.verifyWebhook({
        headers: req.headers,
        query: Object.fromEntries(url.searchParams),
        rawBody: received.at(-1)!.body,
      });
      res.writeHead(notice ? 200 : 401).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/mercadopago?source=mp`;
    try {
      const { chargeId } = await provider.createCharge(request());
      fake.approve(chargeId);
      expect((await fake.notify(hook, chargeId)).status).toBe(200);
      expect((await fake.notify(hook, chargeId, { signature: 'wrong' })).status).toBe(401);
      expect((await fake.notify(hook, chargeId, { signature: 'stale' })).status).toBe(401);
      expect((await fake.notify(hook, chargeId, { signature: 'none' })).status).toBe(401);
      expect(received[0].url).toBe(`/webhooks/mercadopago?source=mp&data.id=${chargeId}&type=payment`);
      expect(received[0].headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(received[0].body)).toMatchObject({
        action: 'payment.updated',
        type: 'payment',
        data: { id: chargeId },
      });
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
