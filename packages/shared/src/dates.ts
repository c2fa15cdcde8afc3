/** Whole calendar days from `today` to `due` (negative when past). Dates only, no time of day. */
export function daysUntil(due: string, today: Date = new Date()): number {
  const [y, m, d] = due.slice(0, 10).split('-').map(Number);
  const dueUtc = Date.UTC(y, m - 1, d);
  const todayUtc = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  return Math.round((dueUtc - todayUtc) / 86_400_000);
}

/** ISO `yyyy-mm-dd` → `dd/mm/yyyy`, the format the spec shows due dates in. */
export function formatDueDate(iso: string): string {
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}
