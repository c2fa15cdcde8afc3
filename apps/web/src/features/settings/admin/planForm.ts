import { msg, nameField, type Plan, type PlanFlag, type PlanUpdate } from '@balcao/shared';
import { z } from 'zod';
import type { PlanBody } from './adminApi';

/** The spec's order of the seven module flags (part 2 §3). */
export const PLAN_FLAG_ORDER: readonly PlanFlag[] = [
  'useCampaigns',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
];

const count = z.number({ error: msg.required }).int(msg.required).min(0, msg.required).max(1_000_000, msg.tooLong);

/** A value in BRL with at most 2 decimals, typed with a comma or a dot ("99,90"). */
export const PLAN_VALUE_INVALID = 'plan-value-invalid';
const BRL = /^\d{1,7}([.,]\d{1,2})?$/;

export const planFormSchema = z.object({
  name: nameField(),
  users: count,
  connections: count,
  queues: count,
  value: z.string().trim().min(1, msg.required).regex(BRL, PLAN_VALUE_INVALID),
  ...(Object.fromEntries(PLAN_FLAG_ORDER.map((flag) => [flag, z.boolean()])) as Record<PlanFlag, z.ZodBoolean>),
});

export type PlanFormValues = z.infer<typeof planFormSchema>;

const allFlags = (on: boolean) =>
  Object.fromEntries(PLAN_FLAG_ORDER.map((flag) => [flag, on])) as Record<PlanFlag, boolean>;

/** Spec part 2 §1: a new plan has every module on. */
export const emptyPlanForm: PlanFormValues = {
  name: '',
  users: 0,
  connections: 0,
  queues: 0,
  value: '0,00',
  ...allFlags(true),
};

export function planToForm(plan: Plan): PlanFormValues {
  const flags = Object.fromEntries(PLAN_FLAG_ORDER.map((flag) => [flag, plan[flag]])) as Record<PlanFlag, boolean>;
  return {
    name: plan.name,
    users: plan.users,
    connections: plan.connections,
    queues: plan.queues,
    value: plan.value.toFixed(2).replace('.', ','),
    ...flags,
  };
}

/** The whole plan: a valid POST body and PUT body alike. */
export function planBody(values: PlanFormValues): PlanBody & PlanUpdate {
  return { ...values, value: Number(values.value.replace(',', '.')) };
}

/** "R$ 99,90" in the interface language's number format. */
export function formatBrl(value: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: 'BRL' }).format(value);
}
