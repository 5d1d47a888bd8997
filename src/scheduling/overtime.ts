import type { Db } from '../core/db/transaction.js';
import { addDays, epochDayOfText, hoursBetween, round } from '../core/time.js';
import { findAssignmentsByIds, miscHoursOf } from './reads.js';
import { paidFacts } from './engine.js';
import { later, earlier, overlapHours, type Interval, type Segment } from './segments.js';
import { countsAsWork } from './staffing.js';
import { LOOKBACK_DAYS } from './work.js';
import type { WorkedPiece } from './worked.js';

/**
 * Work periods and overtime (FLSA 7(k), docs/schedule.md "Work periods and overtime"): hours
 * worked per user and work period, and the part of them above the period's threshold.
 */

/** The organization's work period: `days` wall-clock days from `start` (a local datetime), again and again. */
export interface WorkPeriodSetting {
  days: number;
  threshold_hours: number;
  start: string;
}

export interface OvertimeRow {
  user_id: number;
  period_start: string;
  period_end: string;
  worked_hours: number;
  time_off_hours: number;
  counted_hours: number;
  threshold_hours: number;
  regular_hours: number;
  overtime_hours: number;
}

/** The work periods overlapping [range.start, range.end), in order. Pure. */
export function workPeriodsOverlapping(setting: WorkPeriodSetting, range: Interval): Interval[] {
  const anchorDate = setting.start.slice(0, 10);
  const time = setting.start.slice(10);
  const startOf = (k: number) => `${addDays(anchorDate, k * setting.days)}${time}`;
  let k = Math.floor((epochDayOfText(range.start.slice(0, 10))! - epochDayOfText(anchorDate)!) / setting.days);
  if (startOf(k) > range.start) k -= 1;
  const periods: Interval[] = [];
  for (; startOf(k) < range.end; k += 1) periods.push({ start: startOf(k), end: startOf(k + 1) });
  return periods;
}

/** The index of the first period ending after `at` (periods are in order); periods.length when none does. */
/**
 * Whether the work period holds the date of misc hours entered with a date and a length: from the
 * period's first date to the day before the next period's (the overtime report and the fatigue
 * rules' period hours both place them so).
 */
export const periodHoldsDate = (period: Interval, date: string) =>
  period.start.slice(0, 10) <= date && period.end.slice(0, 10) > date;

function firstEndingAfter(periods: Interval[], at: string): number {
  let [low, high] = [0, periods.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (periods[middle]!.end > at) high = middle;
    else low = middle + 1;
  }
  return low;
}

const inside = (span: Interval, period: Interval) => span.start >= period.start && span.end <= period.end;

/**
 * Hours of a worked piece inside the period: its real hours there less its break there. Hold-over
 * is worked right after the piece's end, so it counts in the period holding that instant.
 */
function workedWithin(piece: WorkedPiece, period: Interval, timeZone: string): number {
  const holdOverHere = piece.end >= period.start && piece.end < period.end ? piece.hold_over : 0;
  if (inside(piece, period)) return piece.worked_hours - piece.hold_over + holdOverHere;
  const hours = overlapHours(piece.start, piece.end, period.start, period.end, timeZone);
  const breakHours = overlapHours(
    later(piece.start, period.start),
    earlier(piece.end, period.end),
    piece.break_start,
    piece.break_end,
    timeZone,
  );
  return hours - breakHours + holdOverHere;
}

/** Charged hours of a time off segment inside the period: in proportion to its real hours there. */
function chargedWithin(segment: Segment, period: Interval, timeZone: string): number {
  if (inside(segment, period)) return segment.length;
  const span = hoursBetween(segment.start, segment.end, timeZone);
  return span > 0
    ? (segment.length * overlapHours(segment.start, segment.end, period.start, period.end, timeZone)) / span
    : 0;
}

/**
 * Regular and overtime hours per user and work period overlapping [start, end) (a checked period,
 * periodOf). Counted hours = worked hours (the engine's worked pieces on work-shift assignments,
 * by their overlap with the period, plus misc hours dated in it) + hours of approved time off of
 * types that count as worked; overtime = what exceeds the threshold. A row for each user and period
 * with any worked or time off hours, by user then period.
 */
export async function overtimeOf(
  db: Db,
  orgId: number,
  timeZone: string,
  setting: WorkPeriodSetting,
  query: { start: string; end: string; userId?: number },
): Promise<OvertimeRow[]> {
  const periods = workPeriodsOverlapping(setting, query);
  if (periods.length === 0) return [];
  const first = periods[0]!;
  const last = periods[periods.length - 1]!;
  // work and time off placed up to the longest shift before the first period still reach into it
  const span = { start: `${addDays(first.start.slice(0, 10), -LOOKBACK_DAYS)}${first.start.slice(10)}`, end: last.end };
  const userIds = query.userId === undefined ? undefined : [query.userId];
  const [paid, misc] = await Promise.all([
    paidFacts(db, orgId, span, timeZone, userIds),
    miscHoursOf(db, orgId, first.start.slice(0, 10), addDays(last.end.slice(0, 10), -1), query.userId),
  ]);
  const assignments = await findAssignmentsByIds(db, orgId, new Set(paid.worked.map((piece) => piece.assignment_id)));
  const worked = paid.worked.filter((piece) => {
    const assignment = assignments.get(piece.assignment_id);
    return assignment !== undefined && countsAsWork(assignment);
  });

  const totals = new Map<string, { worked: number; timeOff: number; counted: number }>();
  const add = (userId: number, index: number, worked: number, timeOff: number, counted: number) => {
    if (worked === 0 && timeOff === 0) return;
    const key = `${userId}|${index}`;
    const total = totals.get(key) ?? { worked: 0, timeOff: 0, counted: 0 };
    totals.set(key, {
      worked: total.worked + worked,
      timeOff: total.timeOff + timeOff,
      counted: total.counted + counted,
    });
  };
  for (const piece of worked) {
    // to the period after the piece's end too: hold-over is worked there when the piece ends at its start
    for (
      let index = firstEndingAfter(periods, piece.start);
      index < periods.length && periods[index]!.start <= piece.end;
      index += 1
    ) {
      const hours = workedWithin(piece, periods[index]!, timeZone);
      add(piece.user_id, index, hours, 0, hours);
    }
  }
  for (const { timeOff, segment } of paid.timeOff) {
    for (
      let index = firstEndingAfter(periods, segment.start);
      index < periods.length && periods[index]!.start < segment.end;
      index += 1
    ) {
      const hours = chargedWithin(segment, periods[index]!, timeZone);
      add(timeOff.user_id, index, 0, hours, timeOff.time_off_type.counts_as_worked ? hours : 0);
    }
  }
  // misc hours belong to the period holding their date (its first date to the day before the next period's)
  for (const entry of misc) {
    const index = firstEndingAfter(periods, `${entry.date} 24`);
    if (index === periods.length || !periodHoldsDate(periods[index]!, entry.date)) continue;
    const hours = Number(entry.length);
    add(entry.user_id, index, hours, 0, hours);
  }

  return [...totals.entries()]
    .map(([key, total]) => {
      const [userId, index] = key.split('|').map(Number) as [number, number];
      const period = periods[index]!;
      const counted = round(total.counted);
      const overtime = round(Math.max(0, counted - setting.threshold_hours));
      return {
        user_id: userId,
        period_start: period.start,
        period_end: period.end,
        worked_hours: round(total.worked),
        time_off_hours: round(total.timeOff),
        counted_hours: counted,
        threshold_hours: setting.threshold_hours,
        regular_hours: round(counted - overtime),
        overtime_hours: overtime,
      };
    })
    .sort((a, b) => a.user_id - b.user_id || (a.period_start < b.period_start ? -1 : 1));
}
