import { z } from 'zod';
import { intId, msg, nameField, numberField, pageQuery, updateOf } from './common.js';

/** Spec part 2 §3: a contact list and its `contactsCount`; the WhatsApp check counts are ours (DOMAIN §12). */
export const contactListSchema = z.object({
  id: z.number(),
  name: z.string(),
  companyId: z.number(),
  contactsCount: z.number(),
  validCount: z.number(),
  invalidCount: z.number(),
  uncheckedCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactList = z.infer<typeof contactListSchema>;

export const contactListInput = z.object({ name: nameField() });
export const contactListUpdate = updateOf(contactListInput);
export const contactListsQuery = pageQuery;
export const contactListsReply = z.object({
  records: z.array(contactListSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export const contactListOption = z.object({ id: z.number(), name: z.string() });

/** Spec part 2 §3 list item; `isWhatsappValid` is null until the background check ran. */
export const contactListItemSchema = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  isWhatsappValid: z.boolean().nullable(),
  variables: z.record(z.string(), z.string()),
  contactListId: z.number(),
  companyId: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactListItem = z.infer<typeof contactListItemSchema>;

const optionalEmail = z
  .union([
    z.literal(''),
    z
      .string()
      .trim()
      .pipe(z.email({ error: msg.invalidEmail })),
  ])
  .default('');

export const contactListItemInput = z.object({
  name: nameField(),
  number: numberField(),
  email: optionalEmail,
  contactListId: intId(),
});
export type ContactListItemInput = z.infer<typeof contactListItemInput>;
export const contactListItemUpdate = updateOf(contactListItemInput.omit({ contactListId: true }));

export const contactListItemsQuery = pageQuery.extend({ contactListId: intId() });
export const contactListItemsReply = z.object({
  contacts: z.array(contactListItemSchema),
  count: z.number(),
  hasMore: z.boolean(),
});

/** An import (contacts or a list's upload) as its uploader follows it (DOMAIN §12). */
export const contactImportSchema = z.object({
  id: z.number(),
  status: z.enum(['pending', 'running', 'done', 'failed']),
  total: z.number(),
  processed: z.number(),
  imported: z.number(),
  rejected: z.number(),
  contactListId: z.number().nullable(),
  error: z.string().nullable(),
});
export type ContactImport = z.infer<typeof contactImportSchema>;

/** The `company-{id}-contactImport` payload, to the uploader only. */
export interface ContactImportEvent {
  action: 'progress' | 'done' | 'failed';
  import: ContactImport;
}

/** Limits of an import file (DOMAIN §12). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 50_000;
export const IMPORT_EXTENSIONS = ['.xls', '.xlsx', '.csv'] as const;
