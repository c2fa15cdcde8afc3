import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pixCopyPaste } from '../../src/modules/billing/providers/pix-code.js';

/**
 * A local stand-in for Mercado Pago's Payments API, over real HTTP: `POST /v1/payments` (Pix only,
 * Bearer token checked, `X-Idempotency-Key` required: the same key answers the same payment) and
 * `GET /v1/payments/{id}`, answered in the shapes Mercado Pago documents. Test controls move a payment
 * (`approve`, `expire`) and deliver its webhook the way Mercado Pago does (`notify`): a POST to
 * `{url}?data.id={id}&type=payment` with `x-request-id` and `x-signature: ts=…,v1=…`, v1 being the
 * HMAC-SHA256 of `id:{data.id};request-id:{x-request-id};ts:{ts};` under the webhook secret, and the
 * body `{id, action: 'payment.updated', type: 'payment', data: {id}, …}`. Forged deliveries (wrong
 * secret, stale ts, no signature) are one option away. Every API request is recorded.
 */

export interface MpRecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The JSON body, for POSTs. */
  body?: Record<string, unknown>;
}

export interface MpPayment {
  id: number;
  status: string;
  status_detail: string;
  transaction_amount: number;
  external_reference: string | null;
  description: string;
  date_of_expiration: string;
  date_approved: string | null;
  transaction_details: { total_paid_amount: number; net_received_amount: number } & Record<string, unknown>;
  [field: string]: unknown;
}

export type MpScriptedReply =
  /** An error status with Mercado Pago's error body. */
  | { status: number; message?: string }
  /** Never answers (the client's timeout must fire). */
  | { hang: true };

export interface MpWebhookOptions {
  /** `valid` (default), `wrong` (another secret), `stale` (ts 10 minutes old), `none` (no x-signature). */
  signature?: 'valid' | 'wrong' | 'stale' | 'none';
  /** The signature's ts, in ms (default now); sent as seconds unless `tsUnit` is `ms`. */
  at?: number;
  tsUnit?: 's' | 'ms';
  /** The notification's `type` (body and query); `payment` by default. */
  type?: string;
  /** Leaves the `x-request-id` header out (the signature is still made with it). */
  dropRequestId?: boolean;
}

export interface MpWebhookDelivery {
  query: Record<string, string>;
  headers: Record<string, string>;
  rawBody: string;
  /** The notification id in the body. */
  notificationId: number;
}

export interface FakeMercadoPago {
  /** The API root to configure (`MERCADOPAGO_BASE_URL`). */
  url: string;
  accessToken: string;
  webhookSecret: string;
  requests: MpRecordedRequest[];
  payments: Map<string, MpPayment>;
  /** Queues answers for the next API requests, used before the normal behaviour. */
  script(...replies: MpScriptedReply[]): void;
  /** The payment is paid: `approved`/`accredited`, `total_paid_amount` = amount (default the charged one). */
  approve(id: string | number, amount?: number): MpPayment;
  /** The Pix code expired unpaid: `cancelled`/`expired`, as Mercado Pago reports it. */
  expire(id: string | number): MpPayment;
  /** Builds a webhook delivery for a payment (no HTTP): for unit tests of `verifyWebhook`. */
  webhook(paymentId: string | number, options?: MpWebhookOptions): MpWebhookDelivery;
  /** POSTs a webhook delivery to `webhookUrl` (adding the query) and answers the route's status and body. */
  notify(
    webhookUrl: string,
    paymentId: string | number,
    options?: MpWebhookOptions,
  ): Promise<{ status: number; body: string; delivery: MpWebhookDelivery }>;
  reset(): void;
  close(): Promise<void>;
}

let notificationSeq = 100_000_000;

/** Mercado Pago's own timestamps are in its servers' zone (UTC−4). */
function mpDate(ms: number): string {
  return `${new Date(ms - 4 * 3600_000).toISOString().slice(0, 23)}-04:00`;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function mpError(res: ServerResponse, status: number, message: string, error = 'bad_request') {
  send(res, status, { message, error, status, cause: [{ code: status, description: message, data: null }] });
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The `x-signature` manifest, as Mercado Pago builds it. */
function manifest(dataId: string, requestId: string, ts: string) {
  const id = /^[a-z0-9]+$/i.test(dataId) ? dataId.toLowerCase() : dataId;
  return `id:${id};request-id:${requestId};ts:${ts};`;
}

const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export async function startFakeMercadoPago(
  options: { accessToken?: string; webhookSecret?: string } = {},
): Promise<FakeMercadoPago> {
  const script: MpScriptedReply[] = [];
  const hanging = new Set<ServerResponse>();
  const byIdempotencyKey = new Map<string, string>();
  let nextId = 1_320_000_001;

  const fake: FakeMercadoPago = {
    url: '',
    accessToken: options.accessToken ?? 'TEST-0000000000000000-000000-fake-token',
    webhookSecret: options.webhookSecret ?? 'fake-mercadopago-webhook-secret',
    requests: [],
    payments: new Map(),
    script: (...replies) => script.push(...replies),

    approve(id, amount) {
      const payment = found(id);
      const now = Date.now();
      payment.status = 'approved';
      payment.status_detail = 'accredited';
      payment.date_approved = mpDate(now);
      payment.date_last_updated = mpDate(now);
      const paid = amount ?? payment.transaction_amount;
      payment.transaction_details = {
        ...payment.transaction_details,
        total_paid_amount: paid,
        net_received_amount: paid,
      };
      return payment;
    },

    expire(id) {
      const payment = found(id);
      payment.status = 'cancelled';
      payment.status_detail = 'expired';
      payment.date_last_updated = mpDate(Date.now());
      return payment;
    },

    webhook(paymentId, opts = {}) {
      const dataId = String(paymentId);
      const type = opts.type ?? 'payment';
      const at = opts.signature === 'stale' ? (opts.at ?? Date.now()) - 10 * 60_000 : (opts.at ?? Date.now());
      const ts = opts.tsUnit === 'ms' ? String(at) : String(Math.floor(at / 1000));
      const requestId = randomUUID();
      const secret = opts.signature === 'wrong' ? `${fake.webhookSecret}-not` : fake.webhookSecret;
      const v1 = createHmac('sha256', secret)
        .update(manifest(dataId, requestId, ts))
        .digest('hex');
      const notificationId = ++notificationSeq;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (!opts.dropRequestId) headers['x-request-id'] = requestId;
      if (opts.signature !== 'none') headers['x-signature'] = `ts=${ts},v1=${v1}`;
      const rawBody = JSON.stringify({
        id: notificationId,
        live_mode: false,
        type,
        date_created: mpDate(Date.now()),
        user_id: 123456789,
        api_version: 'v1',
        action: type === 'payment' ? 'payment.updated' : `${type}.updated`,
        data: { id: dataId },
      });
      return { query: { 'data.id': dataId, type }, headers, rawBody, notificationId };
    },

    async notify(webhookUrl, paymentId, opts) {
      const delivery = fake.webhook(paymentId, opts);
      const target = new URL(webhookUrl);
      for (const [key, value] of Object.entries(delivery.query)) target.searchParams.set(key, value);
      const res = await fetch(target, { method: 'POST', headers: delivery.headers, body: delivery.rawBody });
      return { status: res.status, body: await res.text(), delivery };
    },

    reset() {
      script.length = 0;
      fake.requests.length = 0;
      fake.payments.clear();
      byIdempotencyKey.clear();
    },

    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function found(id: string | number): MpPayment {
    const payment = fake.payments.get(String(id));
    if (!payment) throw new Error(`Fake Mercado Pago has no payment ${id}`);
    return payment;
  }

  function createPayment(body: Record<string, unknown>): MpPayment | string {
    const amount = body.transaction_amount;
    if (typeof amount !== 'number' || !(amount > 0)) return 'transaction_amount must be a positive number';
    if (Math.round(amount * 100) / 100 !== amount) return 'transaction_amount has more than 2 decimals';
    if (body.payment_method_id !== 'pix') return 'payment_method_id not supported by the fake (pix only)';
    if (typeof body.description !== 'string') return 'description is required';
    const payer = body.payer as { email?: unknown; first_name?: unknown; last_name?: unknown } | undefined;
    if (typeof payer?.email !== 'string' || !payer.email.includes('@')) return 'payer.email is invalid';
    const expiration = body.date_of_expiration;
    if (
      typeof expiration !== 'string' ||
      !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?[+-]\d\d:\d\d$/.test(expiration) ||
      Number.isNaN(Date.parse(expiration))
    ) {
      return 'date_of_expiration must be yyyy-MM-ddTHH:mm:ss.SSSz';
    }
    const reference = body.external_reference;
    if (reference !== undefined && (typeof reference !== 'string' || reference.length > 64)) {
      return 'external_reference is invalid';
    }
    const id = nextId++;
    const now = Date.now();
    const txid = `MP${id}`;
    const payment: MpPayment = {
      id,
      date_created: mpDate(now),
      date_approved: null,
      date_last_updated: mpDate(now),
      date_of_expiration: expiration,
      money_release_date: null,
      operation_type: 'regular_payment',
      payment_method_id: 'pix',
      payment_type_id: 'bank_transfer',
      status: 'pending',
      status_detail: 'pending_waiting_transfer',
      currency_id: 'BRL',
      description: body.description,
      live_mode: false,
      collector_id: 123456789,
      payer: {
        id: null,
        email: payer.email,
        first_name: typeof payer.first_name === 'string' ? payer.first_name : null,
        last_name: typeof payer.last_name === 'string' ? payer.last_name : null,
        type: null,
      },
      metadata: {},
      external_reference: typeof reference === 'string' ? reference : null,
      transaction_amount: amount,
      transaction_amount_refunded: 0,
      transaction_details: {
        net_received_amount: 0,
        total_paid_amount: amount,
        overpaid_amount: 0,
        installment_amount: 0,
        financial_institution: null,
        transaction_id: null,
      },
      point_of_interaction: {
        type: 'PIX',
        sub_type: null,
        application_data: { name: null, version: null },
        transaction_data: {
          qr_code: pixCopyPaste({
            key: 'fake-mercadopago@example.com',
            amount,
            txid,
            merchantName: 'FAKE MERCADO PAGO',
            city: 'OSASCO',
          }),
          qr_code_base64: TINY_PNG,
          ticket_url: `https://www.mercadopago.com.br/payments/${id}/ticket?caller_id=1&hash=fake`,
          transaction_id: null,
        },
      },
    };
    fake.payments.set(String(id), payment);
    return payment;
  }

  const server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const raw = await bodyOf(req);
    const recorded: MpRecordedRequest = { method: req.method ?? '', path, headers: req.headers };
    if (req.method === 'POST' && raw) {
      try {
        recorded.body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        fake.requests.push(recorded);
        return mpError(res, 400, 'Invalid JSON body');
      }
    }
    fake.requests.push(recorded);

    const reply = script.shift();
    if (reply && 'hang' in reply) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (reply) return mpError(res, reply.status, reply.message ?? `Scripted ${reply.status}`, 'internal_error');

    if (req.headers.authorization !== `Bearer ${fake.accessToken}`) {
      return mpError(res, 401, 'invalid access token', 'unauthorized');
    }

    if (path === '/v1/payments' && req.method === 'POST') {
      const key = req.headers['x-idempotency-key'];
      if (typeof key !== 'string' || !key) return mpError(res, 400, 'Header X-Idempotency-Key is required');
      const known = byIdempotencyKey.get(key);
      if (known) return send(res, 201, fake.payments.get(known));
      const created = createPayment(recorded.body ?? {});
      if (typeof created === 'string') return mpError(res, 400, created);
      byIdempotencyKey.set(key, String(created.id));
      return send(res, 201, created);
    }

    const match = /^\/v1\/payments\/([^/]+)$/.exec(path);
    if (match && req.method === 'GET') {
      const payment = fake.payments.get(decodeURIComponent(match[1]));
      if (!payment) return mpError(res, 404, 'Payment not found', 'not_found');
      return send(res, 200, payment);
    }

    mpError(res, 404, `Unknown route ${req.method} ${path}`, 'not_found');
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
