import { z } from 'zod';
import { int4, intId, updateOf } from './common.js';

/** Spec part 2 §5: a schedule's body has at least 5 characters. */
export const SCHEDULE_BODY_MIN = 5;
export const scheduleStatuses = ['PENDENTE', 'ENVIANDO', 'ENVIADA', 'ERRO', 'CANCELADA'] as const;
export type ScheduleStatus = (typeof scheduleStatuses)[number];
export const scheduleRecurrences = ['none', 'daily', 'weekly', 'monthly'] as const;
export type ScheduleRecurrence = (typeof scheduleRecurrences)[number];

export const scheduleSchema = z.object({
  id: z.number(),
  body: z.string(),
  sendAt: z.string(),
  sentAt: z.string().nullable(),
  status: z.enum(scheduleStatuses),
  companyId: z.number(),
  contactId: z.number(),
  contact: z.object({ id: z.number(), name: z.string(), number: z.string() }),
  whatsappId: z.number().nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  recurrence: z.enum(scheduleRecurrences),
  cancelIfReplied: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

/**
 * `sendAt`: an ISO instant with its offset, or a wall-clock `YYYY-MM-DD HH:mm[:ss]` read in the
 * company's time zone (the server decides which instant that is).
 */
const sendAtField = z
  .string({ error: 'Obrigatório' })
  .trim()
  .min(1, 'Obrigatório')
  .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/, 'Data inválida');

export const scheduleInput = z.object({
  body: z
    .string({ error: 'Obrigatório' })
    .trim()
    .min(SCHEDULE_BODY_MIN, 'Mensagem muito curta')
    .max(4096, 'Muito longo!'),
  contactId: intId('Obrigatório'),
  sendAt: sendAtField,
  whatsappId: intId().nullable().optional(),
  recurrence: z.enum(scheduleRecurrences).default('none'),
  cancelIfReplied: z.boolean().default(false),
});
export type ScheduleInput = z.input<typeof scheduleInput>;
export const scheduleUpdate = updateOf(scheduleInput);

export const schedulesListQuery = z.object({
  search: z.string().trim().max(200).optional().default(''),
  page: int4({ min: 1, max: 100_000 }).optional().default(1),
  contactId: intId().optional(),
});
export const schedulesListReply = z.object({
  schedules: z.array(scheduleSchema),
  count: z.number(),
  hasMore: z.boolean(),
});

/** The live `company-{id}-schedule` push (spec part 2 §7: `{action, schedules, scheduleId}`). */
export type ScheduleEvent =
  | { action: 'create' | 'update'; schedules: Schedule }
  | { action: 'delete'; scheduleId: number };
