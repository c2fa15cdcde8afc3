/**
 * The one number normalisation (DOMAIN §12), used by contacts, imports and contact lists:
 * digits only; a Brazilian number written without its country code (10–11 digits: area code +
 * 8 or 9 digits) gets 55.
 */
export function normalizeNumber(raw: string): string {
  const digits = String(raw).replace(/\D/g, '');
  return digits.length === 10 || digits.length === 11 ? `55${digits}` : digits;
}

/**
 * Both forms of a Brazilian mobile number, with and without the ninth digit (55 + area + 9 + 8
 * digits, or 55 + area + 8 digits). WhatsApp knows one of them; the server asks it which
 * (`checkNumber`) and stores that. Other numbers have only themselves.
 */
export function ninthDigitVariants(number: string): string[] {
  const m = /^55(\d{2})(9?)(\d{8})$/.exec(number);
  if (!m || !/^[6-9]/.test(m[3])) return [number];
  const [, area, nine, rest] = m;
  return nine ? [number, `55${area}${rest}`] : [number, `55${area}9${rest}`];
}
