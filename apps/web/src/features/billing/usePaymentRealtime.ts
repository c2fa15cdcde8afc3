import { companyEvent, formatDueDate, type PaymentEvent, paymentEvent, STORAGE } from '@balcao/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { queryKeys } from '../../api/queryKeys';
import { useAuth, useSessionUser } from '../../app/AuthContext';
import { useSocketEvent } from '../../app/RealtimeProvider';
import { PAYMENT_REDIRECT_MS } from './format';

/**
 * `company-{id}-payment` (spec part 2 §4): on CONCLUIDA a toast with the new licence due date, the
 * session's due date and the invoices refreshed, then '/' after 4 seconds.
 */
export function usePaymentRealtime(onPaid?: (event: PaymentEvent) => void): void {
  const { t } = useTranslation();
  const me = useSessionUser();
  const { updateUser } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  useSocketEvent<PaymentEvent>(companyEvent.payment(me.companyId), (payload) => {
    const parsed = paymentEvent.safeParse(payload);
    if (!parsed.success) return;
    const event = parsed.data;
    const { dueDate } = event.company;
    toast.success(t('billing.paid', { dueDate: formatDueDate(dueDate) }), { toastId: `payment-${event.invoiceId}` });
    updateUser({ company: { ...me.company, dueDate } });
    localStorage.setItem(STORAGE.companyDueDate, dueDate);
    void queryClient.invalidateQueries({ queryKey: queryKeys.billing.invoices });
    void queryClient.invalidateQueries({ queryKey: queryKeys.billing.company(me.companyId) });
    onPaid?.(event);
    clearTimeout(redirectTimer.current);
    redirectTimer.current = setTimeout(() => navigate('/'), PAYMENT_REDIRECT_MS);
  });
}
