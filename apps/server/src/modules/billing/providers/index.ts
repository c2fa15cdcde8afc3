/**
 * Picks the Pix payment provider from configuration. Environment variables:
 *
 * - `PAYMENTS_PROVIDER`: `sandbox` (the in-process sandbox "bank", whose charges can be paid from the
 *   checkout screen) or `mercadopago`.
 * - `MERCADOPAGO_BASE_URL`: the Mercado Pago API root; `https://api.mercadopago.com` by default
 *   (tests point it at a local fake).
 * - `MERCADOPAGO_ACCESS_TOKEN`: the application's access token (`APP_USR-…`, or `TEST-…` for test
 *   credentials); required with `mercadopago`.
 * - `MERCADOPAGO_WEBHOOK_SECRET`: the webhook secret signature shown under Your integrations →
 *   Webhooks; required with `mercadopago` (every notification's `x-signature` is checked with it).
 * - `SANDBOX_PAYMENTS_SECRET`: signs and checks the sandbox's webhooks; required with `sandbox`.
 */
import { createMercadoPagoProvider } from './mercadopago.js';
import type { PaymentProvider, ProviderName } from './provider.js';
import { createSandboxProvider, type SandboxChargeStore } from './sandbox.js';

export const MERCADOPAGO_DEFAULT_BASE_URL = 'https://api.mercadopago.com';

export interface PaymentsConfig {
  PAYMENTS_PROVIDER: ProviderName;
  MERCADOPAGO_BASE_URL?: string;
  MERCADOPAGO_ACCESS_TOKEN?: string;
  MERCADOPAGO_WEBHOOK_SECRET?: string;
  SANDBOX_PAYMENTS_SECRET?: string;
}

export function createPaymentProvider(config: PaymentsConfig, sandboxStore: SandboxChargeStore): PaymentProvider {
  switch (config.PAYMENTS_PROVIDER) {
    case 'sandbox':
      return createSandboxProvider({ store: sandboxStore, secret: config.SANDBOX_PAYMENTS_SECRET ?? '' });
    case 'mercadopago':
      return createMercadoPagoProvider({
        baseUrl: config.MERCADOPAGO_BASE_URL || MERCADOPAGO_DEFAULT_BASE_URL,
        accessToken: config.MERCADOPAGO_ACCESS_TOKEN ?? '',
        webhookSecret: config.MERCADOPAGO_WEBHOOK_SECRET ?? '',
      });
    default:
      throw new Error(`Unknown PAYMENTS_PROVIDER: ${String(config.PAYMENTS_PROVIDER)}`);
  }
}

export { createMercadoPagoProvider, type MercadoPagoOptions } from './mercadopago.js';
export * from './provider.js';
export {
  createSandboxProvider,
  isSandboxProvider,
  type SandboxCharge,
  type SandboxChargeStore,
  type SandboxProvider,
  sandboxWebhook,
  type WebhookDelivery,
} from './sandbox.js';
