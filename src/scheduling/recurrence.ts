import { LRUCache } from 'lru-cache';
import { invalidParams } from '../core/errors.js';
import {
  checkRule,
  Frequency,
  fromFloatingDate,
  parseRule,
  RRule,
  ruleBody,
  toFloatingDate,
  type RRuleOptions as Options,
} from '../core/recurrence.js';
import {
  epochDayOfText,
  formatDate,
  formatLocalDateTime,
  hoursBetween,
  monthsFromTo,
  parseDate,
  parseLocalDateTime,
  Temporal,
} from '../core/time.js';
import type { AssignmentRow } from '../resources/assignments/table.js';

/*
 * Recurrence expansion (pure): the occurrences of assignments and of recurring leave.
 */

/** One occurrence of an assignment: wall-clock start and end in the organization's zone. */
export interface AssignmentOccurrence {
  assignment_id: number;
  /** The date the occurrence starts on. */
  date: string;
  start: string;
  end: string;
  /** Real elapsed hours (23 for a 24-hour occurrence across the spring DST change). */
  length: number;
}

export type RecurringAssignment = Pick<AssignmentRow, 'id' | 'date' | 'start' | 'end' | 'rrule' | 'until_date'>;

export const DEFAULT_RRULE = 'FREQ=DAILY';

/**
 * Where rrule may start iterating: for DAILY and WEEKLY rules without COUNT, the first start moved
 * forward by whole periods (same phase) to just before the window, so an assignment started years
 * ago does not cost years of iteration. Other rules start at the first occurrence.
 */
function iterationStart(
  first: Temporal.PlainDateTime,
  options: Partial<Options>,
  from: Temporal.PlainDate,
): Temporal.PlainDateTime {
  if (options.count) return first;
  const interval = options.interval ?? 1;
  const periodDays = options.freq === Frequency.DAILY ? interval : options.freq === Frequency.WEEKLY ? 7 * interval : 0;
  const daysBefore = first.toPlainDate().until(from, { largestUnit: 'days' }).days - 1;
  if (periodDays === 0 || daysBefore <= periodDays) return first;
  return first.add({ days: Math.floor(daysBefore / periodDays) * periodDays });
}

/** `FREQ=DAILY[;INTERVAL=n]`, the default rule, needs no rule engine: every n-th day from the first. */
function isPlainDaily(options: Partial<Options>): boolean {
  return options.freq === Frequency.DAILY && Object.keys(options).every((key) => key === 'freq' || key === 'interval');
}

function plainDailyStarts(
  first: Temporal.PlainDateTime,
  interval: number,
  from: Temporal.PlainDate,
  to: Temporal.PlainDate,
) {
  const starts: Temporal.PlainDateTime[] = [];
  for (
    let start = iterationStart(first, { freq: Frequency.DAILY, interval }, from);
    Temporal.PlainDate.compare(start.toPlainDate(), to) <= 0;
    start = start.add({ days: interval })
  ) {
    starts.push(start);
  }
  return starts;
}

function occurrenceStarts(
  assignment: RecurringAssignment,
  first: Temporal.PlainDateTime,
  from: Temporal.PlainDate,
  to: Temporal.PlainDate,
) {
  if (!assignment.rrule) return [first];
  const options = parseRule(assignment.rrule);
  if (!options) return [];
  if (isPlainDaily(options)) return plainDailyStarts(first, options.interval ?? 1, from, to);
  const rule = new RRule({ ...options, dtstart: toFloatingDate(iterationStart(first, options, from)) });
  const windowStart = toFloatingDate(from.toPlainDateTime());
  const windowEnd = toFloatingDate(to.toPlainDateTime({ hour: 23, minute: 59, second: 59 }));
  return rule.between(windowStart, windowEnd, true).map(fromFloatingDate);
}

/**
 * Every occurrence of the assignment whose date lies in [startDate, endDate] (inclusive) and not
 * after its until date. Each occurrence repeats the first occurrence's wall-clock start time and
 * wall-clock duration (07:00 to 07:00 next day stays so across DST changes); `length` is the real
 * elapsed time in `timeZone`. Pure: no database access.
 */
export function assignmentOccurrences(
  assignment: RecurringAssignment,
  startDate: string,
  endDate: string,
  timeZone: string,
): readonly AssignmentOccurrence[] {
  const [from, to] = [epochDayOfText(startDate), epochDayOfText(endDate)];
  if (from === undefined || to === undefined || from > to) return [];
  const occurrences: AssignmentOccurrence[] = [];
  for (const month of monthsFromTo(startDate, endDate)) {
    for (const occurrence of occurrencesInMonth(assignment, month, timeZone)) {
      if (occurrence.date >= startDate && occurrence.date <= endDate) occurrences.push(occurrence);
    }
  }
  return occurrences;
}

/**
 * The occurrences of an assignment through one calendar month, kept by everything they depend on:
 * every write to a schedule checks the user's work of its days and every schedule read lists its
 * dates, and the same few assignments and months recur whatever the window asked for (windows
 * moved by a day still share their months).
 */
function occurrencesInMonth(
  assignment: RecurringAssignment,
  [first, last]: [string, string],
  timeZone: string,
): readonly AssignmentOccurrence[] {
  const { id, date, start, end, rrule, until_date } = assignment;
  const key = `${id}|${date}|${start}|${end}|${rrule}|${until_date}|${first}|${timeZone}`;
  let occurrences = computedOccurrences.get(key);
  if (!occurrences) {
    occurrences = Object.freeze(computeOccurrences(assignment, first, last, timeZone).map((o) => Object.freeze(o)));
    computedOccurrences.set(key, occurrences);
  }
  return occurrences;
}

/** Room for a year of months of 300 assignments (each a month of at most 31 small frozen objects). */
const computedOccurrences = new LRUCache<string, readonly AssignmentOccurrence[]>({ max: 4000 });

function computeOccurrences(
  assignment: RecurringAssignment,
  startDate: string,
  endDate: string,
  timeZone: string,
): AssignmentOccurrence[] {
  const first = parseLocalDateTime(assignment.start);
  const firstEnd = parseLocalDateTime(assignment.end);
  const from = parseDate(startDate);
  const until = assignment.until_date && assignment.until_date < endDate ? assignment.until_date : endDate;
  const to = parseDate(until);
  if (!first || !firstEnd || !from || !to || Temporal.PlainDate.compare(from, to) > 0) return [];
  const duration = first.until(firstEnd, { largestUnit: 'hours' });
  return occurrenceStarts(assignment, first, from, to)
    .filter((start) => {
      const date = start.toPlainDate();
      // an occurrence ending after 9999-12-31 cannot be written as a datetime: the calendar ends there
      return (
        Temporal.PlainDate.compare(date, from) >= 0 &&
        Temporal.PlainDate.compare(date, to) <= 0 &&
        start.add(duration).year <= 9999
      );
    })
    .map((startDt) => {
      const start = formatLocalDateTime(startDt);
      const end = formatLocalDateTime(startDt.add(duration));
      return {
        assignment_id: assignment.id,
        date: formatDate(startDt),
        start,
        end,
        length: hoursBetween(start, end, timeZone),
      };
    });
}

/**
 * Recurring leave (extension): an entry's first occurrence is [start, end) and an RFC 5545 RRULE
 * repeats it. Occurrences keep the first one's wall-clock start and wall-clock duration, like
 * recurring shifts. The rule is evaluated on floating (zone-less) times.
 */

export interface Occurrence {
  start: string;
  end: string;
}

/** A rule without end is expanded whole to find its last occurrence: COUNT is bounded. */
const MAX_COUNT = 1000;
const TIME_OFF_RULES = { maxCount: MAX_COUNT };

/** The entry's rule options; 422 naming what is wrong when it is not usable. */
function parseLeaveRule(text: string): Readonly<Partial<Options>> {
  const checked = checkRule(text, TIME_OFF_RULES);
  if (checked.problem !== undefined) throw invalidParams(checked.problem);
  return checked.rule;
}

function ruleFor(text: string, start: string): RRule {
  return new RRule({ ...parseLeaveRule(text), dtstart: toFloatingDate(parseLocalDateTime(start)!) });
}

/** The rule in its stored form (`FREQ=…`, no `RRULE:` prefix); 422 when it is not usable. */
export function normalizeRule(text: string): string {
  parseLeaveRule(text);
  return ruleBody(text);
}

function durationOf(start: string, end: string): Temporal.Duration {
  return parseLocalDateTime(start)!.until(parseLocalDateTime(end)!, { largestUnit: 'hours' });
}

/** End of the last occurrence, or null when the rule never ends. */
export function lastOccurrenceEnd(rule: string | null, start: string, end: string): string | null {
  if (!rule) return end;
  const rrule = ruleFor(rule, start);
  if (!rrule.options.until && !rrule.options.count) return null;
  const starts = rrule.all((_, index) => index < MAX_COUNT);
  const last = starts.length ? fromFloatingDate(starts[starts.length - 1]) : parseLocalDateTime(start)!;
  return formatLocalDateTime(last.add(durationOf(start, end)));
}

/** Occurrences of an entry that overlap [rangeStart, rangeEnd). */
export function occurrencesInRange(
  entry: { start: string; end: string; rrule: string | null },
  rangeStart: string,
  rangeEnd: string,
): Occurrence[] {
  if (!entry.rrule) {
    return entry.start < rangeEnd && entry.end > rangeStart ? [{ start: entry.start, end: entry.end }] : [];
  }
  const duration = durationOf(entry.start, entry.end);
  const searchFrom = parseLocalDateTime(rangeStart)!.subtract(duration);
  const searchTo = parseLocalDateTime(rangeEnd)!;
  return ruleFor(entry.rrule, entry.start)
    .between(toFloatingDate(searchFrom), toFloatingDate(searchTo), true)
    .map((date) => {
      const start = fromFloatingDate(date);
      return { start: formatLocalDateTime(start), end: formatLocalDateTime(start.add(duration)) };
    })
    .filter((occurrence) => occurrence.start < rangeEnd && occurrence.end > rangeStart);
}
