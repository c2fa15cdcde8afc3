import { z } from 'zod';
import { msg, nameField } from './common.js';

const flag = z.boolean();
const limit = z.coerce.number().int().min(0).max(1_000_000);

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

export const planInput = z.object({
  name: nameField(),
  users: limit.default(0),
  connections: limit.default(0),
  queues: limit.default(0),
  value: z.coerce.number({ error: msg.required }).min(0).max(1_000_000).multipleOf(0.01).default(0),
  useCampaigns: flag.default(true),
  useSchedules: flag.default(true),
  useInternalChat: flag.default(true),
  useExternalApi: flag.default(true),
  useKanban: flag.default(true),
  useOpenAi: flag.default(true),
  useIntegrations: flag.default(true),
});
export type PlanInput = z.infer<typeof planInput>;
export const planUpdate = planInput.partial();
