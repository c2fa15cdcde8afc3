/**
 * A Pix payment provider (DOMAIN §18) as billing uses it: charges created for the invoice's amount,
 * confirmed through the provider's own API, and webhooks authenticated the way the provider defines.
 * Billing never trusts a webhook's content beyond "look at this charge": it always asks `getCharge`.
 */

export type ProviderName = 'sandbox' | 'mercadopago';

export interface ChargeRequest {
  /** Our own transaction id, stored on the invoice; the provider's idempotency key and external reference. */
  txid: string;
  /** BRL, 2 decimals: always the invoice's value. */
  amount: number;
  description: string;
  payer: { email: string; name: string };
  /** When the Pix code stops being payable. */
  expiresAt: Date;
}

export interface Charge {
  /** The provider's id of the charge. */
  chargeId: string;
  /** The Pix copy-and-paste code (EMV "BR Code"); the QR image encodes it. */
  copyPaste: string;
  expiresAt: Date;
}

export interface ChargeState {
  chargeId: string;
  status: 'pending' | 'paid' | 'expired' | 'cancelled';
  /** What was paid, when paid. */
  paidAmount: number | null;
  /** Our txid as the provider stored it (external reference), to tie the charge to its invoice. */
  txid: string | null;
}

/** An authenticated webhook delivery: which charge to look at, and the event's own id (idempotency). */
export interface WebhookNotice {
  eventId: string;
  chargeId: string;
}

export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | undefined>;
  /** The body exactly as received (signatures are over bytes, not over re-serialised JSON). */
  rawBody: string;
}

/** The provider failed, refused, or answered something unreadable. Never carries a credential. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}

export interface PaymentProvider {
  readonly name: ProviderName;
  createCharge(request: ChargeRequest): Promise<Charge>;
  getCharge(chargeId: string): Promise<ChargeState>;
  /**
   * Authenticates a webhook delivery (signature, token…): null when it is not authentic, or not about a
   * charge (the route answers 401 and changes nothing).
   */
  verifyWebhook(request: WebhookRequest): WebhookNotice | null;
}
