import {
  checkRule,
  fromFloatingDate,
  RRule,
  ruleBody,
  toFloatingDate,
  type RRuleOptions as Options,
} from '../../core/recurrence.js';
import { invalidParams } from '../../core/errors.js';
import { formatLocalDateTime, parseLocalDateTime, type Temporal } from '../../core/time.js';

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
function parseRule(text: string): Readonly<Partial<Options>> {
  const checked = checkRule(text, TIME_OFF_RULES);
  if (checked.problem !== undefined) throw invalidParams(checked.problem);
  return checked.rule;
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
