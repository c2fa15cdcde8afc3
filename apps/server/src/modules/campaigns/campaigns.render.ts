/** A recipient as the message variables see it. */
export interface Recipient {
  name: string;
  number: string;
  email: string;
  /** The list file's other columns. */
  variables: Record<string, string>;
}

/**
 * `{nome}`, `{numero}`, `{email}`, the company's custom variables and the recipient's own columns,
 * by plain string substitution (DOMAIN §8): a key is never turned into a RegExp, and a value that
 * looks like `{other}` is not substituted again.
 */
export function renderCampaignMessage(
  text: string,
  recipient: Recipient,
  custom: readonly { key: string; value: string }[],
): string {
  const values = new Map<string, string>();
  for (const v of custom) values.set(v.key, v.value);
  for (const [k, v] of Object.entries(recipient.variables)) values.set(k, v);
  values.set('nome', recipient.name);
  values.set('numero', recipient.number);
  values.set('email', recipient.email);
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('{', from);
    const close = open < 0 ? -1 : text.indexOf('}', open + 1);
    if (close < 0) return out + text.slice(from);
    const key = text.slice(open + 1, close);
    const value = values.get(key);
    if (value === undefined) {
      out += text.slice(from, open + 1);
      from = open + 1;
    } else {
      out += text.slice(from, open) + value;
      from = close + 1;
    }
  }
}

/** One of the non-empty texts at random, with its 1-based tab index; null when all are empty. */
export function pickMessage(
  texts: readonly (string | null)[],
  random: () => number,
): { index: number; text: string } | null {
  const filled = texts.flatMap((text, i) => (text?.trim() ? [{ index: i + 1, text }] : []));
  if (filled.length <= 1) return filled[0] ?? null;
  return filled[Math.min(filled.length - 1, Math.floor(random() * filled.length))];
}

const strip = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

const OPT_OUT = new Set(['sair', 'parar', 'stop', 'cancelar', 'descadastrar']);
const POSITIVE = new Set(['sim', '1', 'ok']);

/** The reply is one opt-out word (case, accents and punctuation ignored). */
export const isOptOut = (body: string) => OPT_OUT.has(strip(body));
/** The reply confirms ("sim", "1", "ok"). */
export const isPositive = (body: string) => POSITIVE.has(strip(body));
/** The opt-out word as stored (for the report). */
export const optOutWord = (body: string) => strip(body);
