import { Temporal } from 'temporal-polyfill';
import { invalidParams } from './errors.js';

/**
 * Time kinds of the API and how crewplan stores them:
 * - date `YYYY-MM-DD`: stored as that text.
 * - datetime `YYYY-MM-DD hh:mm:ss`: wall-clock time in the organization's zone, stored as that text.
 * - iso_datetime: an instant, stored as UTC ISO text (`2026-03-08T13:00:00.000Z`) and written out
 *   with the offset in force in the organization's zone at that instant.
 * A wall-clock time that does not exist (spring gap) or exists twice (autumn) resolves with
 * Temporal's "compatible" disambiguation: the earlier instant for a repeated time, the later
 * wall-clock reading for a skipped one (as RFC 5545 does).
 */

export { Temporal };

const LOCAL_DATETIME = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isValidTimeZone(tz: string): boolean {
  try {
    Temporal.Now.instant().toZonedDateTimeISO(tz);
    return tz.includes('/') || tz === 'UTC';
  } catch {
    return false;
  }
}

/**
 * A zone in its IANA spelling (`america/chicago` → `America/Chicago`), as organizations store it; a link
 * stays the link given (`US/Central`). An unknown zone is returned as given, for the caller's check.
 */
export function canonicalZone(tz: string): string {
  try {
    return Temporal.Now.zonedDateTimeISO(tz).timeZoneId;
  } catch {
    return tz;
  }
}

/** Parses `YYYY-MM-DD`; undefined when not a real date. */
export function parseDate(value: string): Temporal.PlainDate | undefined {
  if (!DATE.test(value)) return undefined;
  try {
    return Temporal.PlainDate.from(value, { overflow: 'reject' });
  } catch {
    return undefined;
  }
}

/** `[year, month, day, hour, minute, second]` of a wall-clock datetime text as parseLocalDateTime reads it. */
type LocalFields = [number, number, number, number, number, number];

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysInMonth = (year: number, month: number) => (month === 2 && isLeapYear(year) ? 29 : MONTH_DAYS[month - 1]!);
const isRealDate = (year: number, month: number, day: number) =>
  month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);

/**
 * The fields of `YYYY-MM-DD hh:mm:ss` (also `T` for the space, seconds optional, or a bare date at
 * midnight) when they name a real wall-clock time; undefined otherwise. It accepts and refuses
 * what Temporal's PlainDateTime does (April 31 and 24:00 refused, a leap second read as :59)
 * without building one: checking a request's datetimes is on every write's path.
 */
function localFields(value: string): LocalFields | undefined {
  const match = LOCAL_DATETIME.exec(value.trim());
  if (!match) return undefined;
  const [, date, hh = '00', mm = '00', ss = '00'] = match;
  const year = Number(date!.slice(0, 4));
  const month = Number(date!.slice(5, 7));
  const day = Number(date!.slice(8, 10));
  const hour = Number(hh);
  const minute = Number(mm);
  const second = Number(ss);
  if (!isRealDate(year, month, day) || hour > 23 || minute > 59 || second > 60) return undefined;
  return [year, month, day, hour, minute, Math.min(second, 59)];
}

/** Parses `YYYY-MM-DD hh:mm:ss` (also `T` for the space, seconds optional, or a bare date at midnight). */
export function parseLocalDateTime(value: string): Temporal.PlainDateTime | undefined {
  const fields = localFields(value);
  return fields && new Temporal.PlainDateTime(...fields);
}

export function isLocalDateTime(value: string): boolean {
  return localFields(value) !== undefined;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const dateText = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`;

export function formatDate(date: Temporal.PlainDate | Temporal.PlainDateTime): string {
  return dateText(date.year, date.month, date.day);
}

export function formatLocalDateTime(dt: Temporal.PlainDateTime): string {
  return `${formatDate(dt)} ${pad(dt.hour)}:${pad(dt.minute)}:${pad(dt.second)}`;
}

/** Normalizes any accepted datetime input to the stored form `YYYY-MM-DD hh:mm:ss`. */
export function normalizeLocalDateTime(value: string): string {
  const fields = localFields(value);
  if (!fields) throw new RangeError(`not a datetime: ${value}`);
  const [year, month, day, hour, minute, second] = fields;
  return `${dateText(year, month, day)} ${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

export function localToZoned(local: string | Temporal.PlainDateTime, timeZone: string): Temporal.ZonedDateTime {
  const dt = typeof local === 'string' ? parseLocalDateTime(local) : local;
  if (!dt) throw new RangeError(`not a datetime: ${String(local)}`);
  return dt.toZonedDateTime(timeZone, { disambiguation: 'compatible' });
}

const epochCache = new Map<string, number>();
const EPOCH_CACHE_SIZE = 20_000;

/**
 * Epoch milliseconds of a wall-clock datetime of the zone, memoized: expanding a schedule asks for
 * the same few start and end times (every crew starts at 07:00) thousands of times per request.
 */
function epochMsOf(local: string, timeZone: string): number {
  if (timeZone === 'UTC') {
    const fields = localFields(local);
    if (fields) return wallClockMs(fields);
  }
  const key = `${timeZone}|${local}`;
  let epochMs = epochCache.get(key);
  if (epochMs === undefined) {
    epochMs = localToZoned(local, timeZone).epochMilliseconds;
    if (epochCache.size >= EPOCH_CACHE_SIZE) epochCache.clear();
    epochCache.set(key, epochMs);
  }
  return epochMs;
}

/** Milliseconds since 1970-01-01 00:00 of the fields read as UTC. */
function wallClockMs([year, month, day, hour, minute, second]: LocalFields): number {
  return epochDayOf(year, month, day) * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000;
}

/** Real elapsed hours between two wall-clock datetimes of the zone (23 or 25 across DST changes). */
export function hoursBetween(startLocal: string, endLocal: string, timeZone: string): number {
  return round((epochMsOf(endLocal, timeZone) - epochMsOf(startLocal, timeZone)) / 3_600_000);
}

/**
 * The longest span, in days, of a period a request reads or a record it writes (time off, trades,
 * shifts, callbacks, events…): the platform expands such spans day by day and along rotations, so
 * an unbounded one (0001 to 9999) would take the server's memory.
 */
export const MAX_SPAN_DAYS = 366;

/** 422 when [start, end) of two wall-clock datetimes is longer than MAX_SPAN_DAYS (`what` names the fields). */
export function assertSpanWithinLimit(startLocal: string, endLocal: string, what = 'period'): void {
  if (hoursBetween(startLocal, endLocal, 'UTC') > MAX_SPAN_DAYS * 24) {
    throw invalidParams(`The ${what} may not be longer than ${MAX_SPAN_DAYS} days.`);
  }
}

export interface PeriodCheck {
  /** An end equal to the start passes (a range of whole dates, both included). */
  allowEqual?: boolean;
  /** How the fields are named when not `start` and `end`: `{ start: 'start date', end: 'end date' }`. */
  fields?: { start: string; end: string };
  /** Also at most MAX_SPAN_DAYS days long, named so in the 422: `within: 'shift'`. */
  within?: string;
}

/**
 * The one period check: 422 "The end must be after the start." when the end is not after the
 * start. Both are dates (YYYY-MM-DD) or both local datetimes as stored (YYYY-MM-DD hh:mm:ss), so
 * that they compare as text.
 */
export function assertPeriod(start: string, end: string, check: PeriodCheck = {}): void {
  if (end < start || (end === start && !check.allowEqual)) {
    const fields = check.fields ?? { start: 'start', end: 'end' };
    throw invalidParams(`The ${fields.end} must be after the ${fields.start}.`);
  }
  if (check.within) assertSpanWithinLimit(start, end, check.within);
}

/**
 * assertPeriod on a body's local datetimes as sent, when both were given: a rule check that skips
 * an end the schema refused (the routes' ruleChecks).
 */
export function assertGivenPeriod(start: string | undefined, end: string | undefined, check?: PeriodCheck): void {
  if (start !== undefined && end !== undefined)
    assertPeriod(normalizeLocalDateTime(start), normalizeLocalDateTime(end), check);
}

/** Rounds hours to 4 decimals so sums of fractions stay readable. */
export function round(hours: number): number {
  return Math.round(hours * 10_000) / 10_000;
}

/** The current instant as stored: UTC ISO text. */
export function nowUtc(): string {
  // the same text as Temporal.Now.instant().toString({ fractionalSecondDigits: 3 }), at a fraction of its cost
  return new Date().toISOString();
}

export function localToUtc(local: string, timeZone: string): string {
  return localToZoned(local, timeZone).toInstant().toString({ fractionalSecondDigits: 3 });
}

export function utcToLocal(utc: string, timeZone: string): string {
  const zoned = Temporal.Instant.from(utc).toZonedDateTimeISO(timeZone);
  return formatLocalDateTime(zoned.toPlainDateTime());
}

/**
 * An instant written with the zone's offset: `2026-03-08T07:00:00-05:00`,
 * or without the colon (`-0500`) as the log's `created` and filters' `created_on` are.
 */
export function formatIsoOffset(utc: string | null | undefined, timeZone: string, colon = true): string | null {
  if (!utc) return null;
  return fastIsoOffset(utc, timeZone, colon) ?? temporalIsoOffset(utc, timeZone, colon);
}

function temporalIsoOffset(utc: string, timeZone: string, colon: boolean): string {
  const zoned = Temporal.Instant.from(utc).toZonedDateTimeISO(timeZone);
  const offset = colon ? zoned.offset : zoned.offset.replace(':', '');
  return `${formatDate(zoned.toPlainDate())}T${pad(zoned.hour)}:${pad(zoned.minute)}:${pad(zoned.second)}${offset}`;
}

const HOUR_MS = 3_600_000;
const hourOffsets = new Map<string, number | null>();
const HOUR_OFFSETS_SIZE = 20_000;

/** The zone's offset through one UTC hour, memoized; null when it changes within the hour. */
function offsetOfHour(hour: number, timeZone: string): number | null {
  const key = `${timeZone}|${hour}`;
  let offset = hourOffsets.get(key);
  if (offset === undefined) {
    const at = (epochMs: number) =>
      Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZone).offsetNanoseconds / 1e6;
    const first = at(hour * HOUR_MS);
    offset = first === at(hour * HOUR_MS + HOUR_MS - 1) ? first : null;
    if (hourOffsets.size >= HOUR_OFFSETS_SIZE) hourOffsets.clear();
    hourOffsets.set(key, offset);
  }
  return offset;
}

/**
 * formatIsoOffset without building a ZonedDateTime per value (lists of log entries and records
 * format hundreds): plain Date arithmetic on the hour's memoized offset. Undefined for what it
 * does not cover (an hour with a zone transition, offsets in seconds, years outside 1000–9999).
 */
function fastIsoOffset(utc: string, timeZone: string, colon: boolean): string | undefined {
  const epochMs = Date.parse(utc);
  if (Number.isNaN(epochMs) || !/(Z|[+-]\d{2}:\d{2})$/.test(utc)) return undefined;
  const offsetMs = offsetOfHour(Math.floor(epochMs / HOUR_MS), timeZone);
  if (offsetMs === null || offsetMs % 60_000 !== 0) return undefined;
  const local = new Date(epochMs + offsetMs);
  const year = local.getUTCFullYear();
  if (year < 1000 || year > 9999) return undefined;
  const minutes = Math.abs(offsetMs) / 60_000;
  const offset = `${offsetMs < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}${colon ? ':' : ''}${pad(minutes % 60)}`;
  const date = `${year}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  return `${date}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${offset}`;
}

/** Parses an iso_datetime input (with offset) or a zone-less datetime read in the zone; returns UTC text. */
export function parseInstantInput(value: string, timeZone: string): string | undefined {
  const trimmed = value.trim();
  if (/[zZ]$|[+-]\d{2}:?\d{2}$/.test(trimmed) && trimmed.length > 10) {
    try {
      const normalized = trimmed.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
      return Temporal.Instant.from(normalized).toString({ fractionalSecondDigits: 3 });
    } catch {
      return undefined;
    }
  }
  const local = parseLocalDateTime(trimmed);
  return local ? localToUtc(formatLocalDateTime(local), timeZone) : undefined;
}

export function todayIn(timeZone: string): Temporal.PlainDate {
  return Temporal.Now.plainDateISO(timeZone);
}

export function nowLocal(timeZone: string): string {
  return formatLocalDateTime(
    Temporal.Now.plainDateTimeISO(timeZone).round({ smallestUnit: 'second', roundingMode: 'floor' }),
  );
}

/** Every date from start to end inclusive. */
export function eachDate(start: Temporal.PlainDate, end: Temporal.PlainDate): Temporal.PlainDate[] {
  const dates: Temporal.PlainDate[] = [];
  for (let d = start; Temporal.PlainDate.compare(d, end) <= 0; d = d.add({ days: 1 })) dates.push(d);
  return dates;
}

/*
 * Calendar arithmetic on `YYYY-MM-DD` text for the hot paths (every write checks the user's work
 * of its days; a schedule lists its dates): plain integer arithmetic on days since 1970-01-01
 * (H. Hinnant's civil-day algorithms, proleptic Gregorian as Temporal's ISO calendar), a tenth of
 * the cost of the same through Temporal.PlainDate. Dates before year 0 or after 9999 go through Temporal.
 */

/** Days since 1970-01-01 of a date in the proleptic Gregorian calendar. */
export function epochDayOf(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The `YYYY-MM-DD` text of a day counted from 1970-01-01. */
export function dateOfEpochDay(epochDay: number): string {
  const z = epochDay + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) return Temporal.PlainDate.from({ year, month, day }).toString();
  return dateText(year, month, day);
}

/** Days since 1970-01-01 of a real `YYYY-MM-DD` date; undefined for any other text. */
export function epochDayOfText(date: string): number | undefined {
  const match = DATE.exec(date);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isRealDate(year, month, day) ? epochDayOf(year, month, day) : undefined;
}

/** The date `days` days after (before, when negative) a `YYYY-MM-DD` date. */
export function addDays(date: string, days: number): string {
  const epochDay = epochDayOfText(date);
  return epochDay === undefined
    ? Temporal.PlainDate.from(date).add({ days }).toString()
    : dateOfEpochDay(epochDay + days);
}

/** Every `YYYY-MM-DD` date from first to last inclusive (none when last is before first). */
export function datesFromTo(first: string, last: string): string[] {
  const [from, to] = [epochDayOfText(first), epochDayOfText(last)];
  if (from === undefined || to === undefined)
    return eachDate(Temporal.PlainDate.from(first), Temporal.PlainDate.from(last)).map(String);
  const dates: string[] = [];
  for (let day = from; day <= to; day += 1) dates.push(dateOfEpochDay(day));
  return dates;
}

/** `[first, last]` dates of every calendar month from the month of one `YYYY-MM-DD` date to the month of another. */
export function monthsFromTo(startDate: string, endDate: string): Array<[string, string]> {
  const months: Array<[string, string]> = [];
  let [year, month] = [Number(startDate.slice(0, 4)), Number(startDate.slice(5, 7))];
  const [lastYear, lastMonth] = [Number(endDate.slice(0, 4)), Number(endDate.slice(5, 7))];
  while (year < lastYear || (year === lastYear && month <= lastMonth)) {
    months.push([dateText(year, month, 1), dateText(year, month, daysInMonth(year, month))]);
    [year, month] = month === 12 ? [year + 1, 1] : [year, month + 1];
  }
  return months;
}
