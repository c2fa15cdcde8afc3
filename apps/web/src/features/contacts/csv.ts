import type { Contact } from '@balcao/shared';

function cell(value: string): string {
  return /[",;\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** CSV of the loaded contacts: a header and one line per contact (name, number, email). */
export function contactsCsv(contacts: readonly Pick<Contact, 'name' | 'number' | 'email'>[]): string {
  const lines = [['name', 'number', 'email'], ...contacts.map((c) => [c.name, c.number, c.email ?? ''])];
  return `${lines.map((line) => line.map(cell).join(',')).join('\r\n')}\r\n`;
}

/** Saves `content` as a file through a temporary link (with a BOM so spreadsheets read UTF-8). */
export function downloadText(content: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  const blob = new Blob([`\uFEFF${content}`], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
