import { z } from 'zod';
import { emailField, int4, intId, nameField, pageQuery, passwordField } from './common.js';
import { planSchema } from './plans.js';
import { settingSchema } from './settings.js';

export const profileEnum = z.enum(['admin', 'user']);

export const queueRef = z.object({ id: z.number(), name: z.string(), color: z.string() });

export const userSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: profileEnum,
  super: z.boolean(),
  companyId: z.number(),
  whatsappId: z.number().nullable(),
  limitAttendance: z.number(),
  allTicket: z.enum(['enable', 'disable']),
  online: z.boolean(),
  avatar: z.string().nullable(),
  queues: z.array(queueRef),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

/** The user as returned by login, refresh and /auth/me: with the company's plan and settings. */
export const sessionUserSchema = userSchema.extend({
  company: z.object({
    id: z.number(),
    name: z.string(),
    dueDate: z.string().nullable(),
    trialExpiration: z.string().nullable(),
    email: z.string().nullable(),
    settings: z.array(settingSchema),
    plan: planSchema.nullable(),
  }),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

const queueIds = z.array(intId()).max(200);

export const userInput = z.object({
  name: nameField(),
  email: emailField(),
  password: passwordField(),
  profile: profileEnum.default('user'),
  limitAttendance: int4({ min: 0, max: 1000 }).default(0),
  whatsappId: intId().nullable().optional().default(null),
  queueIds: queueIds.default([]),
  allTicket: z.enum(['enable', 'disable']).default('disable'),
  /** Only the super user may name another company. */
  companyId: intId().optional(),
});
export type UserInput = z.infer<typeof userInput>;

export const userUpdate = z.object({
  name: nameField().optional(),
  email: emailField().optional(),
  /** An empty password means "keep the current one". */
  password: z.union([z.literal(''), passwordField()]).optional(),
  profile: profileEnum.optional(),
  limitAttendance: int4({ min: 0, max: 1000 }).optional(),
  whatsappId: intId().nullable().optional(),
  queueIds: queueIds.optional(),
  allTicket: z.enum(['enable', 'disable']).optional(),
});
export type UserUpdate = z.infer<typeof userUpdate>;

export const usersListQuery = pageQuery;
export const usersListReply = z.object({ users: z.array(userSchema), count: z.number(), hasMore: z.boolean() });
export const usersSimpleListQuery = z.object({ companyId: intId().optional() });
export const userRefList = z.array(
  userSchema.pick({ id: true, name: true, profile: true, online: true }).extend({ queueIds: z.array(z.number()) }),
);
