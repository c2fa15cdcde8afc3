import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { pixCopyPaste } from './pix-code.js';
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
 * The sandbox Pix provider (DOMAIN §18): an in-process "bank" that behaves like a real provider.
 * Charges live in a store the caller supplies (a database table, so they survive restarts and are
 * shared between instances); each gets an id `sbx_…` and a syntactically valid BR Code. Paying one
 * (`pay`, behind the "pay (sandbox)" button) records the payment in the store and returns a webhook
 * delivery signed exactly as `verifyWebhook` expects, which the caller posts to our own webhook route:
 * from there on the flow is the real one (authenticate, confirm with `getCharge`, settle).
 *
 * Webhook: header `x-sandbox-signature: sha256=<hex HMAC-SHA256(secret, raw body)>`, body
 * `{"eventId": "...", "chargeId": "..."}`.
 */

export interface SandboxCharge {
  /** `sbx_` + 24 hex digits. */
  chargeId: string;
  txid: string;
  /** BRL, what the charge asks for. */
  amount: number;
  copyPaste: string;
  expiresAt: Date;
  /** Null until paid. */
  paidAmount: number | null;
  paidAt: Date | null;
}

export interface SandboxChargeStore {
  /**
   * Inserts a new charge and returns the one kept: the charge already stored under the same txid, if any
   * (a txid is the idempotency key of a charge, as with real providers).
   */
  save(charge: SandboxCharge): Promise<SandboxCharge>;
  find(chargeId: string): Promise<SandboxCharge | null>;
  /** Records the payment if the charge is still unpaid (the first payment wins; later calls change nothing). */
  markPaid(chargeId: string, amount: number): Promise<void>;
}

export interface SandboxOptions {
  store: SandboxChargeStore;
  /** Signs and checks the sandbox's webhooks (SANDBOX_PAYMENTS_SECRET). */
  secret: string;
  now?: () => number;
}

export interface WebhookDelivery {
  headers: Record<string, string>;
  rawBody: string;
}

export interface SandboxProvider extends PaymentProvider {
  readonly name: 'sandbox';
  /**
   * Pays a charge as a payer's bank would (`amount` defaults to the charge's) and returns the webhook
   * the sandbox sends for it. Refuses unknown (404) and expired unpaid (410) charges. Paying a paid
   * charge again changes nothing but still returns a fresh delivery (like a provider's redelivery).
   */
  pay(chargeId: string, amount?: number): Promise<WebhookDelivery>;
}

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
/** The sandbox "bank"'s receiving key, a random-key (EVP) shape. */
export const SANDBOX_PIX_KEY = '5f0c2a8e-1b7d-4c39-9e64-0a3d7b51c2f8';
export const SANDBOX_MERCHANT_NAME = 'BALCAO SANDBOX';
export const SANDBOX_CITY = 'SAO PAULO';

const ID = /^[A-Za-z0-9_-]{1,100}$/;

function sign(secret: string, rawBody: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/** A webhook delivery exactly as the sandbox sends it. */
export function sandboxWebhook(secret: string, notice: WebhookNotice): WebhookDelivery {
  const rawBody = JSON.stringify({ eventId: notice.eventId, chargeId: notice.chargeId });
  return {
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: `sha256=${sign(secret, rawBody)}` },
    rawBody,
  };
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

/** The txid as field 62-05 of a static BR Code accepts it: letters and digits, at most 25. */
function codeTxid(txid: string): string {
  return txid.replace(/[^A-Za-z0-9]/g, '').slice(0, 25) || '***';
}

export function createSandboxProvider({ store, secret, now = Date.now }: SandboxOptions): SandboxProvider {
  if (!secret) throw new Error('SANDBOX_PAYMENTS_SECRET is required');

  async function load(chargeId: string): Promise<SandboxCharge> {
    const charge = ID.test(chargeId) ? await store.find(chargeId) : null;
    if (!charge) throw new PaymentProviderError('Sandbox charge not found', 404);
    return charge;
  }

  return {
    name: 'sandbox',

    async createCharge(request: ChargeRequest): Promise<Charge> {
      const amount = Math.round(request.amount * 100) / 100;
      if (!(amount > 0)) throw new PaymentProviderError('Sandbox charges need a positive amount', 400);
      const charge: SandboxCharge = {
        chargeId: `sbx_${randomBytes(12).toString('hex')}`,
        txid: request.txid,
        amount,
        copyPaste: pixCopyPaste({
          key: SANDBOX_PIX_KEY,
          amount,
          txid: codeTxid(request.txid),
          merchantName: SANDBOX_MERCHANT_NAME,
          city: SANDBOX_CITY,
        }),
        expiresAt: request.expiresAt,
        paidAmount: null,
        paidAt: null,
      };
      const kept = await store.save(charge);
      return { chargeId: kept.chargeId, copyPaste: kept.copyPaste, expiresAt: kept.expiresAt };
    },

    async getCharge(chargeId: string): Promise<ChargeState> {
      const charge = await load(chargeId);
      const paid = charge.paidAmount !== null;
      return {
        chargeId: charge.chargeId,
        status: paid ? 'paid' : charge.expiresAt.getTime() <= now() ? 'expired' : 'pending',
        paidAmount: paid ? charge.paidAmount : null,
        txid: charge.txid,
      };
    },

    verifyWebhook(request: WebhookRequest): WebhookNotice | null {
      const received = header(request.headers, SANDBOX_SIGNATURE_HEADER);
      const match = received && /^sha256=([0-9a-f]{64})$/i.exec(received.trim());
      if (!match) return null;
      const expected = Buffer.from(sign(secret, request.rawBody), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(match[1], 'hex'))) return null;
      let body: unknown;
      try {
        body = JSON.parse(request.rawBody);
      } catch {
        return null;
      }
      const { eventId, chargeId } = (body ?? {}) as { eventId?: unknown; chargeId?: unknown };
      if (typeof eventId !== 'string' || typeof chargeId !== 'string' || !ID.test(eventId) || !ID.test(chargeId)) {
        return null;
      }
      return { eventId, chargeId };
    },

    async pay(chargeId: string, amount?: number): Promise<WebhookDelivery> {
      const charge = await load(chargeId);
      if (charge.paidAmount === null) {
        if (charge.expiresAt.getTime() <= now()) throw new PaymentProviderError('Sandbox charge expired', 410);
        const paid = amount === undefined ? charge.amount : Math.round(amount * 100) / 100;
        if (!(paid > 0)) throw new PaymentProviderError('Sandbox payments need a positive amount', 400);
        await store.markPaid(chargeId, paid);
      }
      return sandboxWebhook(secret, { eventId: `sbxevt_${randomBytes(12).toString('hex')}`, chargeId });
    },
  };
}

export function isSandboxProvider(provider: PaymentProvider): provider is SandboxProvider {
  return provider.name === 'sandbox' && typeof (provider as Partial<SandboxProvider>).pay === 'function';
}
