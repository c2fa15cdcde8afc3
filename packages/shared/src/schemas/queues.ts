import { z } from 'zod';
import { int4, intId, msg, nameField, updateOf } from './common.js';
import { weeklyScheduleEntry } from './companies.js';

export const queueSchema = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  greetingMessage: z.string(),
  outOfHoursMessage: z.string(),
  orderQueue: z.number().nullable(),
  schedules: z.array(weeklyScheduleEntry),
  integrationId: z.number().nullable(),
  promptId: z.number().nullable(),
});
export type Queue = z.infer<typeof queueSchema>;

export const queueInput = z.object({
  name: nameField(),
  color: z.string({ error: msg.required }).trim().min(3, msg.tooShort).max(9, msg.tooLong),
  greetingMessage: z.string().max(4000).default(''),
  outOfHoursMessage: z.string().max(4000).default(''),
  orderQueue: int4({ min: 0, max: 10_000 }).nullable().default(null),
  schedules: z.array(weeklyScheduleEntry).max(7).optional(),
  integrationId: intId().nullable().default(null),
  promptId: intId().nullable().default(null),
});
export type QueueInput = z.infer<typeof queueInput>;
export const queueUpdate = updateOf(queueInput);

/** Recursive, so it carries an id: the API documentation (/api-docs/json) refers to it by name. */
export const queueOptionSchema: z.ZodType<QueueOption> = z
  .lazy(() =>
    z.object({
      id: z.number(),
      queueId: z.number(),
      parentId: z.number().nullable(),
      title: z.string(),
      message: z.string(),
      option: z.number(),
      children: z.array(queueOptionSchema).optional(),
    }),
  )
  .meta({ id: 'QueueOption' });
export interface QueueOption {
  id: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  option: number;
  children?: QueueOption[];
}

export const queueOptionInput = z.object({
  queueId: intId(),
  parentId: intId().nullable().default(null),
  title: z.string().trim().min(1, msg.required).max(100, msg.tooLong),
  message: z.string().max(4000).default(''),
});
export const queueOptionUpdate = updateOf(queueOptionInput.pick({ title: true, message: true }));
export const queueOptionsQuery = z.object({
  queueId: intId(),
  parentId: z.union([z.literal('null'), z.literal('-1'), intId()]).optional(),
});
