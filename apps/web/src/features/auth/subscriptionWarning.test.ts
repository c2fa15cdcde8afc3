import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { sessionUser } from '../../test/fixtures';
import { subscriptionDaysLeft, warnIfSubscriptionEnding } from './subscriptionWarning';

vi.mock('react-toastify', () => ({ toast: { warn: vi.fn() } }));

const today = new Date(2024, 2, 10);
const withDueDate = (dueDate: string | null) => sessionUser({}, { dueDate });

describe('subscriptionDaysLeft', () => {
  it('counts the days left when fewer than 5 remain', () => {
    expect(subscriptionDaysLeft(withDueDate('2024-03-14'), today)).toBe(4);
    expect(subscriptionDaysLeft(withDueDate('2024-03-10'), today)).toBe(0);
  });

  it('is null with 5 or more days left, no due date, or a past due date', () => {
    expect(subscriptionDaysLeft(withDueDate('2024-03-15'), today)).toBeNull();
    expect(subscriptionDaysLeft(withDueDate(null), today)).toBeNull();
    expect(subscriptionDaysLeft(withDueDate('2024-03-09'), today)).toBeNull();
  });
});

describe('warnIfSubscriptionEnding', () => {
  it('warns with singular and plural wording', () => {
    vi.useFakeTimers({ now: today, toFake: ['Date'] });
    try {
      warnIfSubscriptionEnding(withDueDate('2024-03-11'));
      warnIfSubscriptionEnding(withDueDate('2024-03-13'));
      warnIfSubscriptionEnding(withDueDate('2024-04-13'));
    } finally {
      vi.useRealTimers();
    }
    expect(vi.mocked(toast.warn).mock.calls.map(([message]) => message)).toEqual([
      'Sua assinatura vence em 1 dia',
      'Sua assinatura vence em 3 dias',
    ]);
  });
});
