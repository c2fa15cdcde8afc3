import { z } from 'zod';
import { msg, pageQuery, requiredString, updateOf } from './common.js';

export const helpSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  /** The YouTube video id (11 characters). */
  video: z.string(),
});
export type Help = z.infer<typeof helpSchema>;

/**
 * `video` is a YouTube link or id: the service keeps only the validated id (`youtubeVideoId`) and
 * refuses anything else with ERR_INVALID_VIDEO, so the limit here only bounds what is parsed.
 */
export const helpInput = z.object({
  title: requiredString().max(100, msg.tooLong),
  description: z.string().trim().max(2000, msg.tooLong).default(''),
  video: requiredString().max(500, msg.tooLong),
});
export type HelpInput = z.infer<typeof helpInput>;
export const helpUpdate = updateOf(helpInput);
export type HelpUpdate = z.infer<typeof helpUpdate>;

export const helpsListQuery = pageQuery;
export const helpsListReply = z.object({ helps: z.array(helpSchema), count: z.number(), hasMore: z.boolean() });
