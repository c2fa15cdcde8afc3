/**
 * The Pix "BR Code" copy-and-paste string (EMV® QRCPS merchant-presented mode, as the Banco Central
 * do Brasil's BR Code manual profiles it): a sequence of `ID (2 digits) + length (2 digits) + value`
 * fields ending with field 63, a CRC16-CCITT (polynomial 0x1021, initial value 0xFFFF) computed over
 * the whole string up to and including `6304`, as four upper-case hex digits.
 */

export interface PixCodeInput {
  /** The receiver's Pix key (e-mail, phone, CPF/CNPJ or a random EVP key). */
  key: string;
  /** BRL; rendered with 2 decimals. */
  amount: number;
  /** Up to 25 letters and digits (field 62-05); `***` when the code carries none. */
  txid: string;
  /** Up to 25 characters; accents are dropped. */
  merchantName: string;
  /** Up to 15 characters; accents are dropped. */
  city: string;
}

/** CRC16-CCITT-FALSE over the UTF-8 bytes of `text`, as 4 upper-case hex digits. */
export function crc16ccitt(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function field(id: string, value: string): string {
  const length = Buffer.byteLength(value, 'utf8');
  if (length > 99) throw new RangeError(`BR Code field ${id} is longer than 99 bytes`);
  return `${id}${String(length).padStart(2, '0')}${value}`;
}

/** Drops diacritics and anything outside printable ASCII, then cuts to `max` characters (no trailing blank). */
function plain(text: string, max: number): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, max)
    .trimEnd();
}

export function pixCopyPaste({ key, amount, txid, merchantName, city }: PixCodeInput): string {
  if (!key || key.length > 77) throw new RangeError('Pix key must have 1 to 77 characters');
  if (!Number.isFinite(amount) || amount <= 0) throw new RangeError('Pix amount must be positive');
  const value = amount.toFixed(2);
  if (value.length > 13) throw new RangeError('Pix amount is too large');
  if (txid !== '***' && !/^[A-Za-z0-9]{1,25}$/.test(txid)) {
    throw new RangeError('Pix txid must have 1 to 25 letters or digits');
  }
  const name = plain(merchantName, 25);
  const town = plain(city, 15);
  if (!name || !town) throw new RangeError('Pix merchant name and city are required');

  const payload = [
    field('00', '01'),
    field('26', field('00', 'br.gov.bcb.pix') + field('01', key)),
    field('52', '0000'),
    field('53', '986'),
    field('54', value),
    field('58', 'BR'),
    field('59', name),
    field('60', town),
    field('62', field('05', txid)),
    '6304',
  ].join('');
  return payload + crc16ccitt(payload);
}

/** Whether `code` ends with the CRC of everything before it (a reader's first check). */
export function hasValidCrc(code: string): boolean {
  if (code.length < 8 || code.slice(-8, -4) !== '6304') return false;
  return crc16ccitt(code.slice(0, -4)) === code.slice(-4);
}

/** Parses a BR Code's top-level TLV fields (and those of templates 26 and 62 as `26.01`, `62.05`…). */
export function parseBrCode(code: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (text: string, prefix: string) => {
    let i = 0;
    while (i < text.length) {
      const id = text.slice(i, i + 2);
      const length = Number(text.slice(i + 2, i + 4));
      if (!/^\d{2}$/.test(id) || !Number.isInteger(length) || i + 4 + length > text.length) {
        throw new SyntaxError(`Malformed BR Code at ${prefix}${i}`);
      }
      const value = text.slice(i + 4, i + 4 + length);
      out[prefix + id] = value;
      if (!prefix && (id === '26' || id === '62')) walk(value, `${id}.`);
      i += 4 + length;
    }
  };
  walk(code, '');
  return out;
}
