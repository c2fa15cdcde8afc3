import { type QuickMessage, STORAGE } from '@balcao/shared';

export const QUICK_REPLY_LABEL_MAX = 35;

export interface QuickReplyOption {
  id: number;
  label: string;
  /** The text inserted in the input. */
  value: string;
  /** The name of the quick reply's file, sent along with the text; null without one. */
  media: string | null;
}

/** "/shortcode - message", the message cut at 35 characters plus "...". */
export function quickReplyLabel({ shortcode, message }: Pick<QuickMessage, 'shortcode' | 'message'>): string {
  const text = message.length > QUICK_REPLY_LABEL_MAX ? `${message.slice(0, QUICK_REPLY_LABEL_MAX)}...` : message;
  return `/${shortcode} - ${text}`;
}

/**
 * The quick replies suggested for the input: only when it starts with "/" and is longer than one
 * character; matched on the shortcode, case-insensitively.
 */
export function quickReplySuggestions(input: string, quickMessages: QuickMessage[]): QuickReplyOption[] {
  if (!input.startsWith('/') || input.length <= 1) return [];
  const term = input.slice(1).toLowerCase();
  return quickMessages
    .filter((q) => q.shortcode.toLowerCase().includes(term))
    .map((q) => ({ id: q.id, label: quickReplyLabel(q), value: q.message, media: q.isMedia ? q.mediaName : null }));
}

/** The sign option: the user's name in bold and a line break before the text. */
export function signedBody(body: string, userName: string, sign: boolean): string {
  return sign ? `*${userName}:*\n${body}` : body;
}

/** The sign option, on unless turned off (browser storage `signOption`). */
export function storedSignOption(): boolean {
  return localStorage.getItem(STORAGE.signOption) !== 'false';
}

export function storeSignOption(value: boolean): void {
  localStorage.setItem(STORAGE.signOption, String(value));
}
