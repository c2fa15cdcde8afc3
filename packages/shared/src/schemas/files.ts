import { z } from 'zod';
import { intId, msg, pageQuery, updateOf } from './common.js';

/** Spec part 2 §5: a file list's name has at least 3 characters. */
export const FILE_LIST_NAME_MIN = 3;
export const FILE_LIST_NAME_TOO_SHORT = 'Nome muito curto';
/** Options per list: each is one file sent after the list's message. */
export const FILE_LIST_OPTIONS_MAX = 20;
/** Largest option file: the server answers 413 past it, the dialog says so before sending. */
export const FILE_OPTION_MAX_BYTES = 32 * 1024 * 1024;

export const fileOptionSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** The URL the stored file is served under to the company's members (`/media/…`), or null before its upload. */
  path: z.string().nullable(),
  /** The type read from the file's bytes, never the client's claim. */
  mediaType: z.string().nullable(),
  /** The uploaded file's original name, kept as metadata only. */
  fileName: z.string().nullable(),
});
export type FileOption = z.infer<typeof fileOptionSchema>;

export const fileListSchema = z.object({
  id: z.number(),
  name: z.string(),
  message: z.string(),
  userId: z.number().nullable(),
  options: z.array(fileOptionSchema),
});
export type FileList = z.infer<typeof fileListSchema>;

/** An option of the dialog: with `id` an existing one (renamed), without it a new one. */
export const fileOptionInput = z.object({
  id: intId().optional(),
  name: z.string({ error: msg.required }).trim().min(1, msg.required).max(255, msg.tooLong),
});

export const fileListInput = z.object({
  name: z
    .string({ error: msg.required })
    .trim()
    .min(1, msg.required)
    .min(FILE_LIST_NAME_MIN, FILE_LIST_NAME_TOO_SHORT)
    .max(255, msg.tooLong),
  message: z.string({ error: msg.required }).trim().min(1, msg.required).max(4000, msg.tooLong),
  /** The list's options as a whole: the ones left out are deleted with their files. */
  options: z.array(fileOptionInput).max(FILE_LIST_OPTIONS_MAX).default([]),
});
export type FileListInput = z.infer<typeof fileListInput>;
export const fileListUpdate = updateOf(fileListInput);

export const fileListsQuery = pageQuery.extend({
  /** The campaign dialog's read (spec part 2 §7): the company comes from the token, the whole list is given. */
  companyId: intId().optional(),
});
export const fileListsReply = z.object({
  files: z.array(fileListSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type FileListsPage = z.infer<typeof fileListsReply>;

/** Payload of `company-{id}-file` (spec part 2 §4 live lists). */
export type FileListEvent = { action: 'create' | 'update'; record: FileList } | { action: 'delete'; id: number };
