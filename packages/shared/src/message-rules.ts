import type { MessageMediaType } from './schemas/messages.js';

/** A file's message type from its MIME type: image, audio and video by kind, anything else a document. */
export function mediaTypeOf(mimetype: string): MessageMediaType {
  const kind = mimetype.split('/')[0];
  if (kind === 'image' || kind === 'audio' || kind === 'video') return kind;
  return 'application';
}

/** A contact's answer that counts as a rating (DOMAIN §4): a lone 1–5. */
export const isRatingAnswer = (body: string) => /^\s*[1-5]\s*$/.test(body);
