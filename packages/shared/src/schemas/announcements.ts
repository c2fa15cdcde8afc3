import { z } from 'zod';
import { int4, msg, pageQuery, updateOf } from './common.js';

/** Spec part 2 §3 and §9: 1 Alta, 2 Média, 3 Baixa (the default). */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
export type AnnouncementPriority = (typeof ANNOUNCEMENT_PRIORITIES)[number];
export const ANNOUNCEMENT_TITLE_MAX = 255;
export const ANNOUNCEMENT_TEXT_MAX = 10_000;
/** Attachments the dialog offers (spec part 2 §5); the server checks the file's bytes, not its name. */
export const ANNOUNCEMENT_MEDIA_ACCEPT = '.png,.jpg,.jpeg';
/** Largest attachment: the server answers 413 past it, the dialog says so before sending. */
export const ANNOUNCEMENT_MEDIA_MAX_BYTES = 10 * 1024 * 1024;

export const announcementSchema = z.object({
  id: z.number(),
  title: z.string(),
  /** Plain text: shown as text, never as HTML (DOMAIN §15). */
  text: z.string(),
  priority: z.number(),
  status: z.boolean(),
  /** The URL the image is served under to signed-in users (`/announcements/{id}/media/{file}`), or null. */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Announcement = z.infer<typeof announcementSchema>;

export const announcementInput = z.object({
  title: z.string({ error: msg.required }).trim().min(1, msg.required).max(ANNOUNCEMENT_TITLE_MAX, msg.tooLong),
  text: z.string({ error: msg.required }).trim().min(1, msg.required).max(ANNOUNCEMENT_TEXT_MAX, msg.tooLong),
  priority: int4({ min: 1, max: 3 }).default(3),
  status: z.boolean().default(true),
});
export type AnnouncementInput = z.infer<typeof announcementInput>;
export const announcementUpdate = updateOf(announcementInput);

export const announcementsListQuery = pageQuery;
/** The active announcements every signed-in user reads (the top bar), page by page. */
export const activeAnnouncementsQuery = pageQuery.pick({ pageNumber: true });
export const announcementsListReply = z.object({
  records: z.array(announcementSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
export type AnnouncementsPage = z.infer<typeof announcementsListReply>;

/** Payload of `company-announcement` (spec part 2 §4 live lists). */
export type AnnouncementEvent =
  | { action: 'create' | 'update'; record: Announcement }
  | { action: 'delete'; id: number };
