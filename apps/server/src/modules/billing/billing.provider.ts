import { createHmac } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../platform/errors/app-error.js';
import { encryptionKeyOf } from '../../platform/secrets.js';
import { sandboxCharges } from './billing.schema.js';
import { createPaymentProvider, type PaymentProvider } from './providers/index.js';
import type { SandboxCharge, SandboxChargeStore } from './providers/sandbox.js';

/** The sandbox "bank"'s records in the database, so a charge survives restarts and is seen by every instance. */
function sandboxStore(db: Db): SandboxChargeStore {
  return {
    async save(charge: SandboxCharge) {
      await db.insert(sandboxCharges).values(charge).onConflictDoNothing({ target: sandboxCharges.txid });
      const [kept] = await db.select().from(sandboxCharges).where(eq(sandboxCharges.txid, charge.txid));
      return kept;
    },
    async find(chargeId: string) {
      const [row] = await db.select().from(sandboxCharges).where(eq(sandboxCharges.chargeId, chargeId));
      return row ?? null;
    },
    async markPaid(chargeId: string, amount: number) {
      await db
        .update(sandboxCharges)
        .set({ paidAmount: amount, paidAt: new Date() })
        .where(and(eq(sandboxCharges.chargeId, chargeId), isNull(sandboxCharges.paidAmount)));
    },
  };
}

/**
 * The configured Pix provider (DOMAIN §18), built on first use: a provider missing its credentials fails
 * the payment calls (ERR_PAYMENT_PROVIDER), not the server's start. The sandbox's webhook key derives from
 * ENCRYPTION_KEY unless set.
 */
export function lazyPaymentProvider(config: Config, db: Db): () => PaymentProvider {
  let provider: PaymentProvider | undefined;
  return () => {
    if (!provider) {
      try {
        provider = paymentProviderOf(config, db);
      } catch (err) {
        throw new AppError('ERR_PAYMENT_PROVIDER', {}, err instanceof Error ? err.message : 'payments not configured');
      }
    }
    return provider;
  };
}

function paymentProviderOf(config: Config, db: Db): PaymentProvider {
  const sandboxSecret =
    config.SANDBOX_PAYMENTS_SECRET ??
    createHmac('sha256', encryptionKeyOf(config)).update('sandbox-payments').digest('hex');
  return createPaymentProvider(
    { ...config, PAYMENTS_PROVIDER: config.paymentsProvider, SANDBOX_PAYMENTS_SECRET: sandboxSecret },
    sandboxStore(db),
  );
}
