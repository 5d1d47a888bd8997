/** Calendar dates as `YYYY-MM-DD` strings (the organization's local dates; no time zone maths needed). */

const pad = (n: number) => String(n).padStart(2, '0');

export function toDateString(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

export function parseDate(text: string): Date {
  const [y, m, d] = text.split('-').map(Number);
  return new Date(Date.UTC(y, (m || 1) - 1, d || 1));
}

export function addDays(text: string, days: number): string {
  const date = parseDate(text);
  date.setUTCDate(date.getUTCDate() + days);
  return toDateString(date);
}

/** The organization's time zone, once the session has named it (set as the app signs in). */
let organizationZone: string | undefined;

/** "Today" follows the organization's zone from now on, not the device's. */
export function setOrganizationZone(timeZone: string): void {
  organizationZone = timeZone;
}

/** Today's date in the organization's zone (the device's until a session has named the zone). */
export function today(): string {
  if (organizationZone) return nowIn(organizationZone).slice(0, 10);
  const now = new Date();
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Now as a local datetime of the time zone: `2026-11-26 14:05:00`. */
export function nowIn(timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date());
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

export function monthRange(anchor: string): { start: string; end: string } {
  const date = parseDate(anchor);
  const start = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  const end = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0));
  return { start: toDateString(start), end: toDateString(end) };
}

/** Monday to Sunday around the anchor date. */
export function weekRange(anchor: string): { start: string; end: string } {
  const weekday = (parseDate(anchor).getUTCDay() + 6) % 7;
  const start = addDays(anchor, -weekday);
  return { start, end: addDays(start, 6) };
}

export function addMonths(anchor: string, months: number): string {
  const date = parseDate(anchor);
  return toDateString(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1)));
}

export function daysBetween(start: string, end: string): string[] {
  const days: string[] = [];
  for (let day = start; day <= end; day = addDays(day, 1)) days.push(day);
  return days;
}

const WEEKDAY = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' });
const MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const LONG = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });

export const weekdayName = (day: string) => WEEKDAY.format(parseDate(day));
export const monthName = (day: string) => MONTH.format(parseDate(day));
export const longDate = (day: string) => LONG.format(parseDate(day));

/** `2026-11-23 07:00:00` → `07:00`. */
export const timeOf = (localDateTime: string) => localDateTime.slice(11, 16);

/** A readable span of two local datetimes: `Nov 23 07:00 – Nov 24 07:00`. */
export function span(start: string, end: string): string {
  const short = (value: string) =>
    `${new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(parseDate(value.slice(0, 10)))} ${timeOf(value)}`;
  return `${short(start)} – ${start.slice(0, 10) === end.slice(0, 10) ? timeOf(end) : short(end)}`;
}
