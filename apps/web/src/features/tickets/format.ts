const pad = (n: number) => String(n).padStart(2, '0');

export function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** HH:mm of a date-time. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** dd/MM/yyyy of a date-time. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}

/** A ticket's time in the list: HH:mm today, dd/MM/yyyy otherwise. */
export function formatTicketTime(iso: string, now: Date = new Date()): string {
  return sameDay(new Date(iso), now) ? formatTime(iso) : formatDate(iso);
}

export const SHORT_NAME_LENGTH = 10;

/** On narrow screens a contact name is cut at 10 characters plus an ellipsis. */
export function shortName(name: string, narrow: boolean): string {
  return narrow && name.length > SHORT_NAME_LENGTH ? `${name.slice(0, SHORT_NAME_LENGTH)}...` : name;
}
