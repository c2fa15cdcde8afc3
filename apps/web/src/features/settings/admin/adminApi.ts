import type { Company, CompanyUpdate, companyCreate, Plan, PlanUpdate, planInput } from '@balcao/shared';
import type { z } from 'zod';
import { http } from '../../../api/client';

/** What the forms send: the schemas' inputs, so defaulted fields (trialExpiration…) may be left out. */
export type CompanyCreateBody = z.input<typeof companyCreate>;
export type PlanBody = z.input<typeof planInput>;

/** The super user's calls of spec part 2 §7 (Companies, Plans). */
export const companiesApi = {
  list: () => http.get<Company[]>('/companies/list'),
  create: (body: CompanyCreateBody) => http.post<Company>('/companies', body),
  update: (id: number, body: CompanyUpdate) => http.put<Company>(`/companies/${id}`, body),
  remove: (id: number) => http.delete(`/companies/${id}`),
};

export const plansApi = {
  list: () => http.get<Plan[]>('/plans/all'),
  create: (body: PlanBody) => http.post<Plan>('/plans', body),
  update: (id: number, body: PlanUpdate) => http.put<Plan>(`/plans/${id}`, body),
  remove: (id: number) => http.delete(`/plans/${id}`),
};
