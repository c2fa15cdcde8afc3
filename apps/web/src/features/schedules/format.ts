const pad = (n: number) => String(n).padStart(2, '0');

/** Spec part 2 §2: the table shows a schedule's body cut at 25 characters. */
export const SCHEDULE_BODY_PREVIEW = 25;

export function truncateBody(body: string, max = SCHEDULE_BODY_PREVIEW): string {
  return body.length > max ? `${body.slice(0, max)}...` : body;
}

/** DD/MM/YYYY HH:mm:ss of an instant, in the browser's time zone. */
export function formatSendAt(iso: string): string {
  const d = new Date(iso);
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The value of a `datetime-local` input (YYYY-MM-DDTHH:mm, local time). */
export function toDateTimeInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Spec part 2 §5: a new schedule goes one hour from now. */
export function defaultSendAt(now: Date = new Date()): string {
  return toDateTimeInput(new Date(now.getTime() + 60 * 60 * 1000));
}

/** A `datetime-local` value (local wall clock) as an ISO instant. */
export function dateTimeInputToIso(value: string): string {
  return new Date(value).toISOString();
}
