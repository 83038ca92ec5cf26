// Times as an editor enters and reads them: in the browser's time zone, always named.

/** The browser's IANA time zone, e.g. "Europe/Paris". */
export const localTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';

const withZone = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

/** "Tue, 1 Dec 2026, 06:00:00 CET": a moment with its zone named. */
export const formatWithZone = (iso: string): string => withZone.format(new Date(iso));

const pad = (n: number) => String(n).padStart(2, '0');

/** The value of an <input type="datetime-local"> (local wall time, seconds) for a moment. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The UTC ISO moment of a datetime-local value (local wall time), or null when it is not one. */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The local day of a moment, as a key and a heading ("Tuesday 1 December 2026"). */
const dayHeading = new Intl.DateTimeFormat(undefined, { dateStyle: 'full' });
export function dayOf(iso: string): { key: string; heading: string } {
  const date = new Date(iso);
  return {
    key: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`,
    heading: dayHeading.format(date),
  };
}
