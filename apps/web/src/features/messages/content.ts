/** Parsing of message bodies that carry structured content. */
import { isLocationBody, parseLocation } from '@balcao/shared';
import i18n from '../../i18n';

/** A location body is "image|link|description"; the server builds it with the same shared code. */
export { parseLocation };

export interface VcardContent {
  name: string;
  numbers: string[];
}

/** The name (FN) and phone numbers (TEL) of a vCard body. */
export function parseVcard(body: string): VcardContent {
  let name = '';
  const numbers: string[] = [];
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).toUpperCase();
    const value = line.slice(colon + 1).trim();
    if (key === 'FN' || (key.startsWith('FN;') && !name)) name = value;
    else if (key.startsWith('TEL') || key.includes('.TEL')) numbers.push(value);
  }
  return { name, numbers };
}

export type TextPart = { text: string; style?: 'bold' | 'italic' | 'strike' | 'mono' };

const MARKS: Record<string, TextPart['style']> = { '*': 'bold', _: 'italic', '~': 'strike', '`': 'mono' };

/** WhatsApp-style emphasis: *bold*, _italic_, ~strike~ and `mono` within a line. */
export function formatText(text: string): TextPart[] {
  const parts: TextPart[] = [];
  const pattern = /([*_~`])([^\n]*?[^\s\n])\1/g;
  let last = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const [whole, mark, inner] = match;
    const before = text[match.index - 1];
    if (inner.startsWith(' ') || (before && /\w/.test(before))) continue;
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ text: inner, style: MARKS[mark] });
    last = match.index + whole.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/**
 * Text without the emphasis marks (list previews, quoted messages, notifications). A location body
 * (previews carry no message type) reads as its description, or the pin and the word "location".
 */
export function plainText(text: string): string {
  if (isLocationBody(text))
    return parseLocation(text).description || `📍 ${i18n.t('messages.mediaTypes.locationMessage')}`;
  return formatText(text)
    .map((part) => part.text)
    .join('');
}
