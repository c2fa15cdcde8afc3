import {
  type Company,
  type CompanyUpdate,
  emailField,
  msg,
  nameField,
  passwordField,
  RECURRENCES,
  type Recurrence,
} from '@balcao/shared';
import { z } from 'zod';
import type { CompanyCreateBody } from './adminApi';
import { isIsoDate } from './companyDueDate';

/** The first admin's name: optional (the server then names the admin after the company), else a valid name. */
const optionalName = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    if (value === '') return;
    const parsed = nameField().safeParse(value);
    if (!parsed.success) ctx.addIssue({ code: 'custom', message: parsed.error.issues[0].message });
  });

/** The companies form (spec part 2 §5: e-mail and plan required). Creation also names the first admin. */
export function companyFormSchema(mode: 'create' | 'edit') {
  return z.object({
    name: nameField(),
    email: emailField(),
    phone: z.string().trim().max(30, msg.tooLong),
    planId: z.number({ error: msg.required }).int().min(1, msg.required),
    status: z.boolean(),
    campaignsEnabled: z.boolean(),
    dueDate: z.string(),
    recurrence: z.enum(RECURRENCES),
    adminName: mode === 'create' ? optionalName : z.string(),
    password: mode === 'create' ? z.string().min(1, msg.required).pipe(passwordField()) : z.string(),
  });
}

export type CompanyFormValues = z.infer<ReturnType<typeof companyFormSchema>>;

export const emptyCompanyForm: CompanyFormValues = {
  name: '',
  email: '',
  phone: '',
  planId: 0,
  status: true,
  campaignsEnabled: false,
  dueDate: '',
  recurrence: 'MENSAL',
  adminName: '',
  password: '',
};

const recurrenceOf = (value: string | null): Recurrence => RECURRENCES.find((r) => r === value) ?? 'MENSAL';

export function companyToForm(company: Company): CompanyFormValues {
  return {
    name: company.name,
    email: company.email ?? '',
    phone: company.phone ?? '',
    planId: company.planId,
    status: company.status,
    campaignsEnabled: company.campaignsEnabled,
    dueDate: company.dueDate ?? '',
    recurrence: recurrenceOf(company.recurrence),
    adminName: '',
    password: '',
  };
}

/** Spec part 2 §5: an empty or invalid due date is sent as null. */
function companyFields(values: CompanyFormValues) {
  return {
    name: values.name,
    email: values.email,
    phone: values.phone,
    planId: values.planId,
    status: values.status,
    campaignsEnabled: values.campaignsEnabled,
    dueDate: isIsoDate(values.dueDate) ? values.dueDate : null,
    recurrence: values.recurrence,
  };
}

export function companyUpdateBody(values: CompanyFormValues): CompanyUpdate {
  return companyFields(values);
}

export function companyCreateBody(values: CompanyFormValues): CompanyCreateBody {
  return {
    ...companyFields(values),
    password: values.password,
    ...(values.adminName ? { adminName: values.adminName } : {}),
  };
}

/** The recurrences the select offers: only MENSAL (spec part 2 §3), plus a stored other one so it stays visible. */
export function recurrenceOptions(current: Recurrence): Recurrence[] {
  return current === 'MENSAL' ? ['MENSAL'] : ['MENSAL', current];
}
