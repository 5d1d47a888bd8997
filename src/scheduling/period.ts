import { invalidParams } from '../core/errors.js';
import {
  assertPeriod,
  addDays,
  datesFromTo,
  hoursBetween,
  MAX_SPAN_DAYS,
  normalizeLocalDateTime,
  parseLocalDateTime,
  Temporal,
} from '../core/time.js';

/** The dates the engine answers for: every occurrence, lookback and lookahead of a period stays within them. */
const FIRST_SUPPORTED = '1900-01-01 00:00:00';
const LAST_SUPPORTED = '9999-12-25 00:00:00';

/**
 * The period of a read of the schedule (schedule, payroll, vacancies, overtime): ordered, at most
 * MAX_SPAN_DAYS days, within the supported dates (422 naming them otherwise). `days`: every date
 * whose day overlaps [start, end) (an end at 00:00:00 does not add its date).
 */
export function periodOf(query: { start: string; end: string }) {
  const start = normalizeLocalDateTime(query.start);
  const end = normalizeLocalDateTime(query.end);
  assertPeriod(start, end);
  if (start < FIRST_SUPPORTED || end > LAST_SUPPORTED) {
    throw invalidParams(
      `The period must lie between ${FIRST_SUPPORTED.slice(0, 10)} and ${LAST_SUPPORTED.slice(0, 10)}.`,
    );
  }
  // before the dates are listed: 1900 to 9999 would be 3 million of them
  if (hoursBetween(start, end, 'UTC') > (MAX_SPAN_DAYS + 1) * 24)
    throw invalidParams(`The period may not be longer than ${MAX_SPAN_DAYS} days.`);
  const endDate = end.slice(0, 10);
  const days = datesFromTo(start.slice(0, 10), end.endsWith(' 00:00:00') ? addDays(endDate, -1) : endDate);
  if (days.length > MAX_SPAN_DAYS) throw invalidParams(`The period may not be longer than ${MAX_SPAN_DAYS} days.`);
  return { start, end, days };
}

export type Period = ReturnType<typeof periodOf>;

type Bounds = [Temporal.PlainDateTime, Temporal.PlainDateTime];

const isLastDayOfMonth = (date: Temporal.PlainDate) => date.add({ days: 1 }).day === 1;

/** adjacentPeriods' answers by period (Temporal's arithmetic costs about 0.2 ms of CPU a read). */
const adjacent = new Map<string, { prev: Bounds; next: Bounds }>();

/**
 * The periods before and after. A whole-day period (00:00:00 to 23:59:59, or to 00:00:00) steps by
 * whole days, or by calendar months when it is whole months, and is written the way it was asked;
 * any other period steps by its own wall-clock length.
 */
export function adjacentPeriods(period: Period): { prev: Bounds; next: Bounds } {
  const key = `${period.start}|${period.end}`;
  let found = adjacent.get(key);
  if (!found) {
    if (adjacent.size >= 1000) adjacent.clear();
    found = periodsAround(period);
    adjacent.set(key, found);
  }
  return found;
}

function periodsAround(period: Period): { prev: Bounds; next: Bounds } {
  const { start, end, days } = period;
  const closedEnd = end.endsWith(' 23:59:59');
  if (start.endsWith(' 00:00:00') && (closedEnd || end.endsWith(' 00:00:00'))) {
    const firstDay = Temporal.PlainDate.from(days[0]!);
    const lastDay = Temporal.PlainDate.from(days[days.length - 1]!);
    const ending = (last: Temporal.PlainDate) =>
      closedEnd ? last.toPlainDateTime({ hour: 23, minute: 59, second: 59 }) : last.add({ days: 1 }).toPlainDateTime();
    if (firstDay.day === 1 && isLastDayOfMonth(lastDay)) {
      const months = firstDay.until(lastDay.add({ days: 1 }), { largestUnit: 'months' }).months;
      const nextFirst = lastDay.add({ days: 1 });
      return {
        prev: [firstDay.subtract({ months }).toPlainDateTime(), ending(firstDay.subtract({ days: 1 }))],
        next: [nextFirst.toPlainDateTime(), ending(nextFirst.add({ months }).subtract({ days: 1 }))],
      };
    }
    return {
      prev: [firstDay.subtract({ days: days.length }).toPlainDateTime(), ending(firstDay.subtract({ days: 1 }))],
      next: [lastDay.add({ days: 1 }).toPlainDateTime(), ending(lastDay.add({ days: days.length }))],
    };
  }
  const [startDt, endDt] = [parseLocalDateTime(start)!, parseLocalDateTime(end)!];
  const span = startDt.until(endDt, { largestUnit: 'hours' });
  return { prev: [startDt.subtract(span), startDt], next: [endDt, endDt.add(span)] };
}
