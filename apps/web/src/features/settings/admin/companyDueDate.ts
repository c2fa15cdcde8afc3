import { daysUntil, RECURRENCE_MONTHS, type Recurrence } from '@balcao/shared';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written `yyyy-mm-dd` (the date input's value), not 2024-02-30. */
export function isIsoDate(value: string | null | undefined): value is string {
  const match = value ? ISO_DATE.exec(value) : null;
  if (!match) return false;
  const [y, m, d] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export type DueDateTone = 'soon' | 'warning' | 'overdue';

/**
 * The colour of a company's row in the companies table (spec part 2 §9), read literally with the
 * days counted from today to the due date: exactly 5 days ahead pale yellow, from −3 to 4 days
 * orange, exactly −4 days red; any other distance (or no due date) uncoloured.
 */
export function dueDateTone(dueDate: string | null, today: Date = new Date()): DueDateTone | null {
  if (!isIsoDate(dueDate)) return null;
  const days = daysUntil(dueDate, today);
  if (days === 5) return 'soon';
  if (days >= -3 && days <= 4) return 'warning';
  if (days === -4) return 'overdue';
  return null;
}

/** The spec's colours; rows keep dark text on them in the dark theme too. */
export const DUE_DATE_TONE_COLORS: Record<DueDateTone, string> = {
  soon: '#fffead',
  warning: '#f7cc8f',
  overdue: '#fa8c8c',
};

const iso = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/**
 * "+Vencimento" (spec part 2 §9): the due date plus the recurrence's months (1, 2, 3, 6, 12). A day
 * the target month lacks becomes its last day (31/01 + 1 month = 28/02 or 29/02). Without a valid
 * due date the extension counts from today.
 */
export function extendDueDate(dueDate: string | null | undefined, recurrence: Recurrence, today = new Date()): string {
  const [y, m, d] = isIsoDate(dueDate)
    ? dueDate.split('-').map(Number)
    : [today.getFullYear(), today.getMonth() + 1, today.getDate()];
  const months = m - 1 + RECURRENCE_MONTHS[recurrence];
  const year = y + Math.floor(months / 12);
  const month = months % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return iso(year, month, Math.min(d, lastDay));
}
