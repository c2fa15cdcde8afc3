import type { Company, InvoicesPage, Plan, SubscriptionReply, subscriptionInput } from '@balcao/shared';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

/** What the checkout sends to POST /subscription (the server reads only the invoice and the billing fields). */
export type SubscriptionBody = z.input<typeof subscriptionInput>;

/** The calls of spec part 2 §7 "Subscription", the sandbox provider's payment and the plans offered. */
export const billingApi = {
  invoices: (searchParam: string, pageNumber: number) =>
    http.get<InvoicesPage>('/invoices/all', { searchParam, pageNumber }),
  subscribe: (body: SubscriptionBody) => http.post<SubscriptionReply>('/subscription', body),
  /** The sandbox provider only: pays the charge as the real provider's webhook would. */
  sandboxPay: (txid: string) => http.post<unknown>(`/sandbox/payments/${encodeURIComponent(txid)}/pay`),
  plans: () => http.get<Plan[]>('/plans/list'),
  company: (id: number) => http.get<Company>(`/companies/${id}`),
};

/** The plans a company may pick at checkout (GET /plans/list), read while `enabled`. */
export function useOfferedPlans(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.billing.plans, queryFn: billingApi.plans, enabled });
}

/** The caller's company (GET /companies/{id}): its billing e-mail, due date and trial. */
export function useCompany(id: number) {
  return useQuery({ queryKey: queryKeys.billing.company(id), queryFn: () => billingApi.company(id) });
}
