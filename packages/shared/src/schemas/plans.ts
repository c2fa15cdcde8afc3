import { z } from 'zod';
import { int4, msg, nameField } from './common.js';

const flag = z.boolean();
const limit = int4({ min: 0, max: 1_000_000 });

export const planSchema = z.object({
  id: z.number(),
  name: z.string(),
  users: z.number(),
  connections: z.number(),
  queues: z.number(),
  value: z.number(),
  useCampaigns: flag,
  useSchedules: flag,
  useInternalChat: flag,
  useExternalApi: flag,
  useKanban: flag,
  useOpenAi: flag,
  useIntegrations: flag,
});
export type Plan = z.infer<typeof planSchema>;

/** The plan's editable fields, without defaults: `planUpdate` must leave unsent fields alone. */
const planFields = {
  name: nameField(),
  users: limit,
  connections: limit,
  queues: limit,
  value: z.coerce.number({ error: msg.required }).min(0).max(1_000_000).multipleOf(0.01),
  useCampaigns: flag,
  useSchedules: flag,
  useInternalChat: flag,
  useExternalApi: flag,
  useKanban: flag,
  useOpenAi: flag,
  useIntegrations: flag,
};

export const planInput = z.object({
  name: planFields.name,
  users: limit.default(0),
  connections: limit.default(0),
  queues: limit.default(0),
  value: planFields.value.default(0),
  useCampaigns: flag.default(true),
  useSchedules: flag.default(true),
  useInternalChat: flag.default(true),
  useExternalApi: flag.default(true),
  useKanban: flag.default(true),
  useOpenAi: flag.default(true),
  useIntegrations: flag.default(true),
});
export type PlanInput = z.infer<typeof planInput>;
/**
 * Not `planInput.partial()`: zod 4 still applies `.default()` inside `.partial()`, so a PUT of one
 * field would reset the limits to 0 and every flag to true.
 */
export const planUpdate = z.object(planFields).partial();
export type PlanUpdate = z.infer<typeof planUpdate>;
