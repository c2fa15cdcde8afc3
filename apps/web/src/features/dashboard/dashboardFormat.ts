import type { DashboardQuery } from '@balcao/shared';

const pad = (n: number) => String(n).padStart(2, '0');

/** Minutes as the cards show them, `HHh MMm` (spec part 2 §2); null when there is nothing to average. */
export function cardTime(minutes: number | null): string | null {
  if (minutes === null) return null;
  const total = Math.round(minutes);
  return `${pad(Math.floor(total / 60))}h ${pad(total % 60)}m`;
}

/** Minutes as the attendants table shows them, `Xh Ym`; null when the attendant closed nothing. */
export function attendantTime(minutes: number | null): string | null {
  if (minutes === null) return null;
  const total = Math.round(minutes);
  return `${Math.floor(total / 60)}h ${total % 60}m`;
}

/** The chart labels each hour by its end: bucket 0 (00:00–01:00) is '01:00', bucket 23 is '00:00'. */
export const hourLabel = (hour: number) => `${pad((hour + 1) % 24)}:00`;

/** A local calendar day as `yyyy-mm-dd`. */
export function isoDay(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export type DashboardFilter = { mode: 'date'; from: string; to: string } | { mode: 'period'; days: number | null };

/** 'Filtro por Data' from the first day of the current month to today (spec part 2 §5). */
export function defaultFilter(today = new Date()): DashboardFilter {
  return { mode: 'date', from: isoDay(new Date(today.getFullYear(), today.getMonth(), 1)), to: isoDay(today) };
}

/** The query of a filter, or null when none of days, start and end is set ('Parametrize o filtro'). */
export function queryOf(filter: DashboardFilter): DashboardQuery | null {
  if (filter.mode === 'period') return filter.days ? { days: filter.days } : null;
  if (!filter.from && !filter.to) return null;
  return { ...(filter.from ? { date_from: filter.from } : {}), ...(filter.to ? { date_to: filter.to } : {}) };
}
