import { formatLocalDateTime, hoursBetween, localToZoned, round } from '../core/time.js';
import { periodHoldsDate, workPeriodsOverlapping, type WorkPeriodSetting } from './overtime.js';

/*
 * The department's fatigue rules (docs/contract-rules.md, "Fatigue rules"): how long anyone may
 * work. Decided here only; availabilityOf (availability.ts) asks and gives the words as a reason of
 * kind `fatigue`, so every path that puts someone to work refuses (or skips) with them. Pure.
 */

/** The rules as the organization stores them; null = the rule is off. */
export interface FatigueRules {
  /** most hours worked in one stretch (e.g. 72) */
  max_consecutive_hours: number | null;
  /** hours off that end a stretch: work pieces closer than this are one stretch (default 8) */
  stretch_break_hours: number;
  /** rest after a long stretch: `rest_hours` off after `rest_after_hours` worked within `rest_within_hours` */
  rest_hours: number | null;
  rest_after_hours: number | null;
  rest_within_hours: number | null;
  /** most hours worked in one FLSA 7(k) work period */
  max_period_hours: number | null;
}

export interface FatigueSetting {
  rules: FatigueRules;
  workPeriod: WorkPeriodSetting;
  timezone: string;
}

/** A span of local datetimes [start, end). */
interface Span {
  start: string;
  end: string;
}

const restRuleOn = (rules: FatigueRules) =>
  rules.rest_hours !== null && rules.rest_after_hours !== null && rules.rest_within_hours !== null;

/** Whether any rule is on. */
export function fatigueRulesOn(rules: FatigueRules): boolean {
  return rules.max_consecutive_hours !== null || restRuleOn(rules) || rules.max_period_hours !== null;
}

const plusHours = (local: string, hours: number, timeZone: string) =>
  formatLocalDateTime(localToZoned(local, timeZone).add({ hours }).toPlainDateTime());

const earliest = (values: string[]) => values.reduce((a, b) => (b < a ? b : a));
const latest = (values: string[]) => values.reduce((a, b) => (b > a ? b : a));

/** The work the rules look at around the span (null when no rule is on): load it once for every person. */
export function fatigueRange(span: Span, setting: FatigueSetting): Span | null {
  const { rules, timezone } = setting;
  if (!fatigueRulesOn(rules)) return null;
  const spans: Span[] = [span];
  // a stretch is followed far enough to tell it passes the limit (twice the limit, with its breaks)
  const reach = Math.max(
    rules.max_consecutive_hours === null ? 0 : 2 * rules.max_consecutive_hours + rules.stretch_break_hours,
    restRuleOn(rules) ? 2 * rules.rest_within_hours! + rules.rest_hours! : 0,
  );
  if (reach > 0)
    spans.push({ start: plusHours(span.start, -reach, timezone), end: plusHours(span.end, reach, timezone) });
  if (rules.max_period_hours !== null) spans.push(...workPeriodsOverlapping(setting.workPeriod, span));
  return { start: earliest(spans.map((s) => s.start)), end: latest(spans.map((s) => s.end)) };
}

/** The pieces as disjoint intervals, in order (overlapping or touching ones joined). */
function union(pieces: Span[]): Span[] {
  const sorted = [...pieces].filter((p) => p.end > p.start).sort((a, b) => (a.start < b.start ? -1 : 1));
  const joined: Span[] = [];
  for (const piece of sorted) {
    const last = joined.at(-1);
    if (last && piece.start <= last.end) last.end = piece.end > last.end ? piece.end : last.end;
    else joined.push({ ...piece });
  }
  return joined;
}

/** The intervals of the stretch holding the span: neighbours closer than `gap` hours are one stretch. */
function stretchOf(intervals: Span[], span: Span, gap: number, timeZone: string): Span[] {
  const index = intervals.findIndex((item) => item.start <= span.start && item.end >= span.end);
  let [first, last] = [index, index];
  while (first > 0 && hoursBetween(intervals[first - 1]!.end, intervals[first]!.start, timeZone) < gap) first -= 1;
  while (last < intervals.length - 1 && hoursBetween(intervals[last]!.end, intervals[last + 1]!.start, timeZone) < gap)
    last += 1;
  return intervals.slice(first, last + 1);
}

function hoursWithin(intervals: Span[], window: Span, timeZone: string): number {
  let hours = 0;
  for (const item of intervals) {
    const start = item.start > window.start ? item.start : window.start;
    const end = item.end < window.end ? item.end : window.end;
    if (end > start) hours += hoursBetween(start, end, timeZone);
  }
  return round(hours);
}

const total = (intervals: Span[], timeZone: string) =>
  round(intervals.reduce((sum, item) => sum + hoursBetween(item.start, item.end, timeZone), 0));

/** The most hours worked in any `within`-hour window of the stretch that meets the span. */
function busiestWindow(stretch: Span[], span: Span, within: number, timeZone: string): number {
  const windows = stretch.flatMap((item) => [
    { start: item.start, end: plusHours(item.start, within, timeZone) },
    { start: plusHours(item.end, -within, timeZone), end: item.end },
  ]);
  return Math.max(
    0,
    ...windows.filter((w) => w.start < span.end && span.start < w.end).map((w) => hoursWithin(stretch, w, timeZone)),
  );
}

/** Misc hours entered with a date and a length only: no place in time, counted per work period only. */
export interface DatedHours {
  date: string;
  length: number;
}

/**
 * Why working the span breaks a fatigue rule, given the person's other work (worked pieces and
 * accepted callbacks, time off already taken out) and their misc hours of a date and a length
 * (`dated`: counted in the work period holding their date, as the overtime report counts them, and
 * by no other rule): the rule's words, in the order of the rules. Hours are real hours on duty (a
 * break inside a shift is not time off).
 */
export function fatigueReasons(span: Span, work: Span[], setting: FatigueSetting, dated: DatedHours[] = []): string[] {
  const { rules, timezone: timeZone } = setting;
  if (!fatigueRulesOn(rules) || span.end <= span.start) return [];
  const intervals = union([...work, span]);
  const reasons: string[] = [];
  if (rules.max_consecutive_hours !== null) {
    const hours = total(stretchOf(intervals, span, rules.stretch_break_hours, timeZone), timeZone);
    if (hours > rules.max_consecutive_hours)
      reasons.push(`would work ${hours} h in a row; the department's limit is ${rules.max_consecutive_hours} h`);
  }
  if (restRuleOn(rules)) {
    const [rest, after, within] = [rules.rest_hours!, rules.rest_after_hours!, rules.rest_within_hours!];
    const hours = busiestWindow(stretchOf(intervals, span, rest, timeZone), span, within, timeZone);
    if (hours > after)
      reasons.push(
        `would work ${hours} h within ${within} h without ${rest} h off; ` +
          `the department requires ${rest} h off after ${after} h worked within ${within} h`,
      );
  }
  for (const period of rules.max_period_hours === null ? [] : workPeriodsOverlapping(setting.workPeriod, span)) {
    const reason = periodHoursReason(period, intervals, setting, dated);
    if (reason) reasons.push(reason);
  }
  return reasons;
}

/**
 * The period rule over one work period: the hours of `work` in it and the dated hours its dates hold
 * (`dated`), or null within the limit (or with the rule off). The words of `fatigueReasons`.
 */
export function periodHoursReason(
  period: Span,
  work: Span[],
  setting: FatigueSetting,
  dated: DatedHours[] = [],
): string | null {
  const { rules, timezone: timeZone } = setting;
  if (rules.max_period_hours === null) return null;
  const inDate = dated.filter((entry) => periodHoldsDate(period, entry.date));
  const hours = round(hoursWithin(union(work), period, timeZone) + inDate.reduce((sum, e) => sum + e.length, 0));
  if (hours <= rules.max_period_hours) return null;
  return (
    `would work ${hours} h in the work period ${period.start.slice(0, 16)}–${period.end.slice(0, 16)}; ` +
    `the department's limit is ${rules.max_period_hours} h`
  );
}
