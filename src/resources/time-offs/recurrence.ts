import { Frequency, fromFloatingDate, RRule, ruleBody, toFloatingDate, type RRuleOptions as Options } from '../../core/recurrence.js';
import { invalidParams } from '../../core/errors.js';
import { formatLocalDateTime, parseLocalDateTime, Temporal } from '../../core/time.js';

/**
 * Recurring leave (extension): an entry's first occurrence is [start, end) and an RFC 5545 RRULE
 * repeats it. Occurrences keep the first one's wall-clock start and wall-clock duration, like
 * recurring shifts. The rule is evaluated on floating (zone-less) times.
 */

export interface Occurrence {
  start: string;
  end: string;
}

const ALLOWED_FREQUENCIES = new Set([Frequency.DAILY, Frequency.WEEKLY, Frequency.MONTHLY, Frequency.YEARLY]);
const MAX_COUNT = 1000;

function parseRule(text: string): Partial<Options> {
  const body = ruleBody(text);
  let options: Partial<Options>;
  try {
    options = RRule.parseString(body);
  } catch {
    throw invalidParams('The rrule is not a valid RFC 5545 recurrence rule.');
  }
  if (options.freq === undefined || !ALLOWED_FREQUENCIES.has(options.freq)) {
    throw invalidParams('The rrule must have a FREQ of DAILY, WEEKLY, MONTHLY or YEARLY.');
  }
  if (options.dtstart) throw invalidParams('The rrule may not carry DTSTART: the start date is the first occurrence.');
  if (options.count && options.count > MAX_COUNT) throw invalidParams(`The rrule COUNT may not be greater than ${MAX_COUNT}.`);
  return options;
}

function ruleFor(text: string, start: string): RRule {
  return new RRule({ ...parseRule(text), dtstart: toFloatingDate(parseLocalDateTime(start)!) });
}

/** The rule in its stored form (`FREQ=…`, no `RRULE:` prefix); 422 when it is not usable. */
export function normalizeRule(text: string): string {
  parseRule(text);
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
