import type { invoiceDisplayStatus } from '@balcao/shared';

/** Spec part 2 §4 and §9: after the live CONCLUIDA the user is sent to '/' after 4 seconds. */
export const PAYMENT_REDIRECT_MS = 4_000;
/** Spec part 2 §9: the copy button says "Copiado!" for 1 second. */
export const COPY_CONFIRMATION_MS = 1_000;

const DAY_MS = 86_400_000;

/** Today's date (`yyyy-mm-dd`) on the wall calendar of `timeZone`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** 'Pago', 'Vencido' or 'Em Aberto' (spec part 2 §4). */
export type InvoiceDisplayStatus = ReturnType<typeof invoiceDisplayStatus>;

/**
 * Spec part 2 §9: the trial days left are the days between now and the trial's expiration, rounded
 * up. The expiration date (`yyyy-mm-dd`) counts from its local midnight; null when there is no trial
 * or it has ended.
 */
export function trialDaysLeft(trialExpiration: string | null, now: Date = new Date()): number | null {
  if (!trialExpiration) return null;
  const [y, m, d] = trialExpiration.slice(0, 10).split('-').map(Number);
  if (!y || !m || !d) return null;
  const days = Math.ceil((new Date(y, m - 1, d).getTime() - now.getTime()) / DAY_MS);
  return days > 0 ? days : null;
}
