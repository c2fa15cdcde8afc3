import { daysUntil, type SessionUser, SUBSCRIPTION_WARNING_DAYS } from '@balcao/shared';
import { toast } from 'react-toastify';
import i18n from '../../i18n';

/** Days left before the company's due date when fewer than SUBSCRIPTION_WARNING_DAYS remain, else null. */
export function subscriptionDaysLeft(user: SessionUser, today: Date = new Date()): number | null {
  const { dueDate } = user.company;
  if (!dueDate) return null;
  const days = daysUntil(dueDate, today);
  return days >= 0 && days < SUBSCRIPTION_WARNING_DAYS ? days : null;
}

/** "Sua assinatura vence em N dia/dias", shown after login. */
export function warnIfSubscriptionEnding(user: SessionUser): void {
  const days = subscriptionDaysLeft(user);
  if (days !== null) toast.warn(i18n.t('auth.subscriptionWarning', { count: days }), { toastId: 'subscription' });
}
