import { type Help, helpInput, youtubeVideoId } from '@balcao/shared';
import { z } from 'zod';
import type { HelpBody } from '../../helps/helpsApi';

/** The message key of a video that is neither a YouTube link nor an id; checked here before the server does. */
export const HELP_VIDEO_INVALID = 'help-video-invalid';

export const helpFormSchema = z.object({
  title: helpInput.shape.title,
  video: z
    .string()
    .trim()
    .refine((value) => youtubeVideoId(value) !== null, HELP_VIDEO_INVALID),
  description: z.string().trim().max(2000),
});

export type HelpFormValues = z.infer<typeof helpFormSchema>;

export const emptyHelpForm: HelpFormValues = { title: '', video: '', description: '' };

export function helpToForm(help: Help): HelpFormValues {
  return { title: help.title, video: help.video, description: help.description };
}

/** The id, not the pasted link: the server would keep only the id anyway (DOMAIN §15). */
export function helpBody(values: HelpFormValues): HelpBody {
  return { title: values.title, video: youtubeVideoId(values.video) ?? values.video, description: values.description };
}
