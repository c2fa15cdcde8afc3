import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  type Charge,
  type ChargeRequest,
  type ChargeState,
  type PaymentProvider,
  PaymentProviderError,
  type WebhookNotice,
  type WebhookRequest,
} from './provider.js';

/**
 * Mercado Pago's Pix through its Payments API (`/v1/payments`, Checkout Transparente):
 *
 * - createCharge: `POST /v1/payments` with `payment_method_id: 'pix'`, our txid as `external_reference`
 *   and as `X-Idempotency-Key` (the same key answers the same payment), the copy-and-paste code in
 *   `point_of_interaction.transaction_data.qr_code`;
 * - getCharge: `GET /v1/payments/{id}`;
 * - verifyWebhook: the `x-signature` header (`ts=…,v1=…`), v1 being the HMAC-SHA256, keyed with the
 *   application's webhook secret, of the manifest `id:{data.id};request-id:{x-request-id};ts:{ts};`
 *   where `data.id` comes from the notification URL's query string (lower-cased when alphanumeric)
 *   and any part whose value is absent is left out. A `ts` further than 5 minutes from now is a replay.
 *
 * The base URL is operator configuration (tests point it at a local fake), never tenant input.
 */

export interface MercadoPagoOptions {
  /** `https://api.mercadopago.com` in production. */
  baseUrl: string;
  accessToken: string;
  webhookSecret: string;
  /** Per request; 10 s by default. */
  timeoutMs?: number;
  /** Clock for the webhook's replay window (tests). */
  now?: () => number;
}

/** How far a webhook's `ts` may be from our clock. */
export const MERCADOPAGO_SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

/** The payment fields we read (Mercado Pago answers many more). */
interface MpPayment {
  id: number | string;
  status?: string;
  status_detail?: string | null;
  transaction_amount?: number | null;
  external_reference?: string | null;
  date_of_expiration?: string | null;
  transaction_details?: { total_paid_amount?: number | null } | null;
  point_of_interaction?: { transaction_data?: { qr_code?: string | null } | null } | null;
}

/** The manifest Mercado Pago signs, each part present only when its value is. */
export function mercadoPagoManifest(parts: { dataId?: string; requestId?: string; ts?: string }): string {
  let manifest = '';
  if (parts.dataId) {
    const id = /^[a-z0-9]+$/i.test(parts.dataId) ? parts.dataId.toLowerCase() : parts.dataId;
    manifest += `id:${id};`;
  }
  if (parts.requestId) manifest += `request-id:${parts.requestId};`;
  if (parts.ts) manifest += `ts:${parts.ts};`;
  return manifest;
}

/** `ts=…,v1=…` → its parts (unknown keys ignored). */
export function parseMercadoPagoSignature(header: string): { ts?: string; v1?: string } {
  const out: { ts?: string; v1?: string } = {};
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 'ts') out.ts = value;
    else if (key === 'v1') out.v1 = value;
  }
  return out;
}

/** The hex HMAC-SHA256 of a manifest (what `v1` must be). */
export function mercadoPagoSignature(secret: string, manifest: string): string {
  return createHmac('sha256', secret).update(manifest).digest('hex');
}

function header(headers: WebhookRequest['headers'], name: string): string | undefined {
  let value = headers[name];
  if (value === undefined) {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : headers[key];
  }
  if (Array.isArray(value)) return value.length === 1 ? value[0] : undefined;
  return value;
}

/** Seconds or milliseconds since the epoch (Mercado Pago documents the former, sends either). */
function tsToMs(ts: string): number | null {
  if (!/^\d{1,16}$/.test(ts)) return null;
  const n = Number(ts);
  return n >= 1e12 ? n : n * 1000;
}

function sameHex(expected: string, received: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(received)) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(received, 'hex'));
}

/** `date_of_expiration` as Mercado Pago documents it: `yyyy-MM-ddTHH:mm:ss.SSS-03:00` (Brasília). */
export function mercadoPagoDate(date: Date): string {
  const local = new Date(date.getTime() - 3 * 60 * 60 * 1000);
  return `${local.toISOString().slice(0, 23)}-03:00`;
}

function chargeStatus(payment: MpPayment): ChargeState['status'] {
  switch (payment.status) {
    case 'approved':
      return 'paid';
    case 'pending':
    case 'in_process':
    case 'authorized':
    case 'in_mediation':
      return 'pending';
    case 'expired':
      return 'expired';
    case 'cancelled':
      return payment.status_detail === 'expired' ? 'expired' : 'cancelled';
    case 'rejected':
    case 'refunded':
    case 'charged_back':
      return 'cancelled';
    default:
      throw new PaymentProviderError(`Mercado Pago answered an unknown payment status: ${String(payment.status)}`);
  }
}

function splitName(name: string): { first_name: string; last_name?: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return { first_name: words[0] ?? '' };
  return { first_name: words[0], last_name: words.slice(1).join(' ') };
}

export function createMercadoPagoProvider(options: MercadoPagoOptions): PaymentProvider {
  const { accessToken, webhookSecret } = options;
  if (!accessToken) throw new Error('MERCADOPAGO_ACCESS_TOKEN is required');
  if (!webhookSecret) throw new Error('MERCADOPAGO_WEBHOOK_SECRET is required');
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? Date.now;

  async function call(method: 'GET' | 'POST', path: string, body?: unknown, extra: Record<string, string> = {}) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${accessToken}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...extra,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
        redirect: 'error',
      });
      text = await res.text();
    } catch {
      throw new PaymentProviderError(
        controller.signal.aborted
          ? `Mercado Pago did not answer within ${timeoutMs} ms`
          : 'Mercado Pago could not be reached',
      );
    } finally {
      clearTimeout(timer);
    }
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      throw new PaymentProviderError(`Mercado Pago answered ${res.status} with a body that is not JSON`, res.status);
    }
    if (!res.ok) {
      const message = (json as { message?: unknown } | undefined)?.message;
      const detail = typeof message === 'string' ? `: ${message.slice(0, 200)}` : '';
      throw new PaymentProviderError(`Mercado Pago answered ${res.status}${detail}`, res.status);
    }
    if (!json || typeof json !== 'object') {
      throw new PaymentProviderError('Mercado Pago answered an empty body', res.status);
    }
    return json as Record<string, unknown>;
  }

  function readPayment(json: Record<string, unknown>): MpPayment {
    const id = json.id;
    if ((typeof id !== 'number' && typeof id !== 'string') || id === '') {
      throw new PaymentProviderError('Mercado Pago answered a payment without an id');
    }
    return json as unknown as MpPayment;
  }

  return {
    name: 'mercadopago',

    async createCharge(request: ChargeRequest): Promise<Charge> {
      const body = {
        transaction_amount: Math.round(request.amount * 100) / 100,
        description: request.description,
        payment_method_id: 'pix',
        external_reference: request.txid,
        date_of_expiration: mercadoPagoDate(request.expiresAt),
        payer: { email: request.payer.email, ...splitName(request.payer.name) },
      };
      const payment = readPayment(await call('POST', '/v1/payments', body, { 'x-idempotency-key': request.txid }));
      const copyPaste = payment.point_of_interaction?.transaction_data?.qr_code;
      if (typeof copyPaste !== 'string' || !copyPaste) {
        throw new PaymentProviderError('Mercado Pago answered a payment without a Pix code');
      }
      const expires = payment.date_of_expiration ? new Date(payment.date_of_expiration) : request.expiresAt;
      return {
        chargeId: String(payment.id),
        copyPaste,
        expiresAt: Number.isNaN(expires.getTime()) ? request.expiresAt : expires,
      };
    },

    async getCharge(chargeId: string): Promise<ChargeState> {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(chargeId)) {
        throw new PaymentProviderError('Not a Mercado Pago payment id', 404);
      }
      const payment = readPayment(await call('GET', `/v1/payments/${chargeId}`));
      const status = chargeStatus(payment);
      let paidAmount: number | null = null;
      if (status === 'paid') {
        const total = payment.transaction_details?.total_paid_amount;
        const amount = typeof total === 'number' ? total : payment.transaction_amount;
        paidAmount = typeof amount === 'number' && Number.isFinite(amount) ? amount : null;
      }
      return {
        chargeId: String(payment.id),
        status,
        paidAmount,
        txid: typeof payment.external_reference === 'string' ? payment.external_reference : null,
      };
    },

    verifyWebhook(request: WebhookRequest): WebhookNotice | null {
      const signature = header(request.headers, 'x-signature');
      if (!signature) return null;
      const { ts, v1 } = parseMercadoPagoSignature(signature);
      if (!ts || !v1) return null;
      const tsMs = tsToMs(ts);
      if (tsMs === null || Math.abs(now() - tsMs) > MERCADOPAGO_SIGNATURE_TOLERANCE_MS) return null;

      const dataId = request.query['data.id'];
      if (!dataId || !/^[A-Za-z0-9_-]{1,64}$/.test(dataId)) return null;
      const requestId = header(request.headers, 'x-request-id');
      const expected = mercadoPagoSignature(webhookSecret, mercadoPagoManifest({ dataId, requestId, ts }));
      if (!sameHex(expected, v1)) return null;

      let body: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(request.rawBody);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
      } catch {
        // Signed parts are in the URL and headers; an unreadable body only loses the notification id.
      }
      const topic = body.type ?? body.topic ?? request.query.type ?? request.query.topic;
      if (topic !== 'payment') return null;
      // The body is not signed: when it names a resource, it must be the signed one.
      const bodyData = body.data as { id?: unknown } | undefined;
      if (bodyData?.id !== undefined && String(bodyData.id).toLowerCase() !== dataId.toLowerCase()) return null;

      const notificationId = body.id;
      const hasNotificationId =
        (typeof notificationId === 'string' && notificationId !== '') || typeof notificationId === 'number';
      const eventId = hasNotificationId ? String(notificationId) : `${dataId}:${ts}`;
      return { eventId, chargeId: dataId };
    },
  };
}
