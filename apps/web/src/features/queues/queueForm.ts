import { msg, nameField, type Queue, type QueueInput, type WeeklyScheduleEntry } from '@balcao/shared';
import { z } from 'zod';

/** Default business hours of a queue (spec part 2 §9): Mon–Fri 08–18, Sat 08–12, Sun closed (00:00–00:00). */
export const DEFAULT_QUEUE_SCHEDULES: readonly WeeklyScheduleEntry[] = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
  { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
];

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
export const INVALID_TIME = 'invalidTime';

/** Keeps the digits of a typed time and inserts the colon: "0830" → "08:30" (mask ##:##). */
export function maskTime(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

const time = z.string().refine((v) => v === '' || TIME.test(v), INVALID_TIME);

/** Queue colour: required, 3 to 9 characters (spec part 2 §5). */
export const colorField = () =>
  z.string({ error: msg.required }).trim().min(1, msg.required).min(3, msg.tooShort).max(9, msg.tooLong);

export const queueFormSchema = z.object({
  name: nameField(),
  color: colorField(),
  greetingMessage: z.string().max(4000, msg.tooLong),
  outOfHoursMessage: z.string().max(4000, msg.tooLong),
  orderQueue: z.string().refine((v) => v.trim() === '' || /^\d{1,5}$/.test(v.trim()), msg.tooLong),
  schedules: z.array(
    z.object({
      weekday: z.string(),
      weekdayEn: z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']),
      startTime: time,
      endTime: time,
    }),
  ),
  /** The AI prompt that answers in this queue (DOMAIN §16), or none. */
  promptId: z.number().nullable(),
  /** The queue integration that answers in this queue (DOMAIN §17), or none. */
  integrationId: z.number().nullable(),
});

export type QueueFormValues = z.infer<typeof queueFormSchema>;

export function emptyQueueForm(): QueueFormValues {
  return {
    name: '',
    color: '',
    greetingMessage: '',
    outOfHoursMessage: '',
    orderQueue: '',
    schedules: DEFAULT_QUEUE_SCHEDULES.map((s) => ({ ...s })),
    promptId: null,
    integrationId: null,
  };
}

/** A queue's stored hours, Monday to Sunday; a missing day takes its default. */
export function schedulesOf(queue: Pick<Queue, 'schedules'>): WeeklyScheduleEntry[] {
  return DEFAULT_QUEUE_SCHEDULES.map(
    (day) => ({ ...(queue.schedules.find((s) => s.weekdayEn === day.weekdayEn) ?? day) }) as WeeklyScheduleEntry,
  );
}

export function queueToForm(queue: Queue): QueueFormValues {
  return {
    name: queue.name,
    color: queue.color,
    greetingMessage: queue.greetingMessage,
    outOfHoursMessage: queue.outOfHoursMessage,
    orderQueue: queue.orderQueue === null ? '' : String(queue.orderQueue),
    schedules: schedulesOf(queue),
    promptId: queue.promptId,
    integrationId: queue.integrationId,
  };
}

export function queueBody(values: QueueFormValues): QueueInput {
  const order = values.orderQueue.trim();
  return {
    name: values.name.trim(),
    color: values.color.trim(),
    greetingMessage: values.greetingMessage,
    outOfHoursMessage: values.outOfHoursMessage,
    orderQueue: order === '' ? null : Number(order),
    schedules: values.schedules,
    integrationId: values.integrationId,
    promptId: values.promptId,
  };
}
