import { msg, type Tag } from '@balcao/shared';
import { z } from 'zod';
import { colorField } from '../queues/queueForm';
import type { TagBody } from './tagsApi';

/** Spec part 2 §5: a tag name needs at least 3 characters. */
export const TAG_TOO_SHORT = 'Mensagem muito curta';
export const DEFAULT_TAG_COLOR = '#5C59A0';

export const tagFormSchema = z.object({
  name: z.string().trim().min(3, TAG_TOO_SHORT).max(50, msg.tooLong),
  color: colorField(),
  kanban: z.boolean(),
});

export type TagFormValues = z.infer<typeof tagFormSchema>;

export const emptyTagForm: TagFormValues = { name: '', color: DEFAULT_TAG_COLOR, kanban: false };

export function tagToForm(tag: Tag): TagFormValues {
  return { name: tag.name, color: tag.color, kanban: tag.kanban === 1 };
}

export function tagBody(values: TagFormValues): TagBody {
  return { name: values.name.trim(), color: values.color.trim(), kanban: values.kanban ? 1 : 0 };
}
