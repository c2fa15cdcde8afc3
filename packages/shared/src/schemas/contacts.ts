import { z } from 'zod';
import { msg, nameField, numberField, pageQuery, updateOf } from './common.js';

export const extraInfoSchema = z.object({ id: z.number().optional(), name: z.string(), value: z.string() });

export const contactSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  profilePicUrl: z.string(),
  isGroup: z.boolean(),
  extraInfo: z.array(extraInfoSchema).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Contact = z.infer<typeof contactSchema>;

export const contactInput = z.object({
  name: nameField(),
  number: numberField(),
  email: z
    .union([
      z.literal(''),
      z
        .string()
        .trim()
        .pipe(z.email({ error: msg.invalidEmail })),
    ])
    .default(''),
  extraInfo: z
    .array(z.object({ name: z.string().trim().min(1).max(100), value: z.string().max(1000) }))
    .max(50)
    .optional(),
});
export type ContactInput = z.infer<typeof contactInput>;
export const contactUpdate = updateOf(contactInput);

export const contactsListQuery = pageQuery;
export const contactsListReply = z.object({
  contacts: z.array(contactSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
/** The pickers' search: `searchParam` (spec §7) by name or number; `name` is the same, older form. */
export const contactsSimpleQuery = z.object({
  searchParam: pageQuery.shape.searchParam,
  name: z.string().max(100).optional(),
});
