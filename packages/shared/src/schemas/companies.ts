import { z } from 'zod';
import { RECURRENCES } from '../constants.js';
import { emailField, intId, isoDate, msg, nameField, passwordField } from './common.js';
import { planSchema } from './plans.js';
import { settingSchema } from './settings.js';

export const weeklyScheduleEntry = z.object({
  weekday: z.string(),
  weekdayEn: z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']),
  startTime: z.union([z.literal(''), z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/)]),
  endTime: z.union([z.literal(''), z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/)]),
});
export type WeeklyScheduleEntry = z.infer<typeof weeklyScheduleEntry>;

export const companySchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  status: z.boolean(),
  planId: z.number(),
  plan: planSchema.pick({ id: true, name: true }).nullable(),
  dueDate: z.string().nullable(),
  recurrence: z.string().nullable(),
  trialExpiration: z.string().nullable(),
  /** The company's `campaignsEnabled` setting (spec part 2 §3), so the companies form can edit it. */
  campaignsEnabled: z.boolean(),
  createdAt: z.string(),
  schedules: z.array(weeklyScheduleEntry),
});
export type Company = z.infer<typeof companySchema>;

/** Empty or invalid due dates are sent as null by the company form (spec part 2 §5). */
const dueDate = z.preprocess((v) => (v === '' || v === undefined ? null : v), isoDate.nullable());

export const companyInput = z.object({
  name: nameField(),
  email: emailField(),
  phone: z.string().trim().max(30).optional().default(''),
  planId: intId(msg.required),
  status: z.boolean().default(true),
  dueDate: dueDate.optional().default(null),
  recurrence: z.enum(RECURRENCES).default('MENSAL'),
  trialExpiration: dueDate.optional().default(null),
  campaignsEnabled: z.boolean().optional(),
});
export type CompanyInput = z.infer<typeof companyInput>;
/**
 * Creation also sets the company's first admin: its password, and its name (optional for API
 * clients of the original spec: the admin is then named after the company). Its e-mail is the company's.
 */
export const companyCreate = companyInput.extend({ password: passwordField(), adminName: nameField().optional() });
export type CompanyCreate = z.infer<typeof companyCreate>;
/**
 * Not `companyInput.partial()`: zod 4 still applies `.default()` inside `.partial()`, so renaming a
 * company would also clear its due date and phone and reactivate it.
 */
export const companyUpdate = z
  .object({
    name: nameField(),
    email: emailField(),
    phone: z.string().trim().max(30),
    planId: companyInput.shape.planId,
    status: z.boolean(),
    dueDate,
    recurrence: z.enum(RECURRENCES),
    trialExpiration: dueDate,
    campaignsEnabled: z.boolean(),
  })
  .partial();
export type CompanyUpdate = z.infer<typeof companyUpdate>;

export const companySchedulesInput = z.object({ schedules: z.array(weeklyScheduleEntry).length(7) });

export const companyWithSettings = companySchema.extend({ settings: z.array(settingSchema) });
