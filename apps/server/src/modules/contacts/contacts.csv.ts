/**
 * CSV in and out for imports and exports (DOMAIN §12). Cells that a spreadsheet would run as a
 * formula (`=`, `+`, `-`, `@`, tab, CR) are prefixed with `'`: contact names are chosen by
 * strangers on WhatsApp.
 */
export const UTF8_BOM = '\uFEFF';

export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",;\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** UTF-8 when the bytes are valid UTF-8, otherwise Latin-1 (Excel's "CSV" on Windows); BOM dropped. */
export function decodeText(data: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    text = new TextDecoder('latin1').decode(data);
  }
  return text.startsWith(UTF8_BOM) ? text.slice(1) : text;
}

/** RFC 4180 with `;` or `,`, whichever the first line uses more (quoted cells may hold either). */
export function parseCsv(text: string): string[][] {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const sep = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === sep) {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows.filter((r) => r.some((v) => v.trim() !== ''));
}
