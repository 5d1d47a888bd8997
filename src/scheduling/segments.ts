import { addDays, hoursBetween, round } from '../core/time.js';

/**
 * How one occurrence of time off meets the user's scheduled work (docs/schedule.md, "Time off").
 * Pure: the engine hands in the work and says whether the user follows a schedule.
 */

export interface Interval {
  start: string;
  end: string;
}

/** A scheduled piece of work as the splitting sees it. */
export interface WorkSpan extends Interval {
  /** the date the work is dated (its assignment occurrence's or the shift's) */
  date: string;
  length: number;
  break_start: string | null;
  break_end: string | null;
}

/** One item of GET /time_offs: the part of an occurrence that falls on one shift or one day. */
export interface Segment extends Interval {
  /** hours charged: the scheduled hours it covers, including the break */
  length: number;
  /** `length` without the break */
  real_length: number;
  /** the day it belongs to: the covered shift's date, or the day it starts on */
  date: string;
  /** the start of the covered shift (or of the day piece): payroll places the hours by it */
  anchor: string;
}

export const later = (a: string, b: string) => (a > b ? a : b);
export const earlier = (a: string, b: string) => (a < b ? a : b);

/** Hours of [start, end) inside [otherStart, otherEnd) (0 when either is missing or they do not meet). */
export function overlapHours(
  start: string,
  end: string,
  otherStart: string | null,
  otherEnd: string | null,
  timeZone: string,
): number {
  if (!otherStart || !otherEnd) return 0;
  const from = later(start, otherStart);
  const to = earlier(end, otherEnd);
  return from < to ? hoursBetween(from, to, timeZone) : 0;
}

/** [start, end) less the intervals (which need not be sorted or disjoint). */
export function subtractIntervals(span: Interval, cuts: Interval[]): Interval[] {
  let pieces: Interval[] = [span];
  for (const cut of cuts) {
    if (cut.end <= span.start || cut.start >= span.end) continue;
    pieces = pieces.flatMap((piece) => {
      if (cut.end <= piece.start || cut.start >= piece.end) return [piece];
      const kept: Interval[] = [];
      if (cut.start > piece.start) kept.push({ start: piece.start, end: cut.start });
      if (cut.end < piece.end) kept.push({ start: cut.end, end: piece.end });
      return kept;
    });
  }
  return pieces;
}

function segmentOfWork(occurrence: Interval, piece: WorkSpan, timeZone: string): Segment {
  const start = later(occurrence.start, piece.start);
  const end = earlier(occurrence.end, piece.end);
  const whole = start === piece.start && end === piece.end;
  const length = whole ? piece.length : hoursBetween(start, end, timeZone);
  const breakHours = overlapHours(start, end, piece.break_start, piece.break_end, timeZone);
  return { start, end, length, real_length: round(length - breakHours), date: piece.date, anchor: piece.start };
}

/**
 * Without scheduled work in the occurrence: one piece per day, in 24-hour wall-clock steps from
 * its start (07:00 to 07:00 the next day, …), the last one cut at its end. Each charges
 * `hoursPerDay` at most (0 for a user who follows a schedule: their day off costs nothing).
 */
function segmentsByDay(occurrence: Interval, hoursPerDay: number, timeZone: string): Segment[] {
  const segments: Segment[] = [];
  const time = occurrence.start.slice(10);
  for (let date = occurrence.start.slice(0, 10), start = occurrence.start; start < occurrence.end; ) {
    date = addDays(date, 1);
    const end = earlier(`${date}${time}`, occurrence.end);
    const hours = round(Math.min(hoursBetween(start, end, timeZone), hoursPerDay));
    segments.push({ start, end, length: hours, real_length: hours, date: start.slice(0, 10), anchor: start });
    start = end;
  }
  return segments;
}

/** A segment less the hours the person works over it anyway (a recall): what is left, capped at its hours. */
function cutDayPiece(segment: Segment, worked: Interval[], timeZone: string): Segment[] {
  const kept = subtractIntervals(segment, worked);
  if (kept.length === 1 && kept[0]!.start === segment.start && kept[0]!.end === segment.end) return [segment];
  let room = segment.length;
  return kept.map((span) => {
    const hours = round(Math.min(hoursBetween(span.start, span.end, timeZone), room));
    room -= hours;
    return { ...segment, start: span.start, end: span.end, length: hours, real_length: hours };
  });
}

/**
 * Splits one occurrence of time off along the user's work: one segment per scheduled piece of
 * work it overlaps (cut to the occurrence). When it overlaps none: day pieces charging the type's
 * default day for a user with no schedule, nothing for one who follows a rotation. `worked` are
 * the hours the user works over the time off anyway (a recall: work booked over it): the time off
 * does not cover them, so they are cut out of its segments (docs/time-off.md, "Recall over leave").
 */
export function splitOccurrence(
  occurrence: Interval,
  work: WorkSpan[],
  options: { followsSchedule: boolean; defaultDayHours: number; timeZone: string; worked?: Interval[] },
): Segment[] {
  const worked = (options.worked ?? []).filter((w) => w.start < occurrence.end && w.end > occurrence.start);
  const pieces = work
    .filter((piece) => piece.start < occurrence.end && piece.end > occurrence.start)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  if (pieces.length > 0)
    return pieces.flatMap((piece) =>
      subtractIntervals(
        { start: later(occurrence.start, piece.start), end: earlier(occurrence.end, piece.end) },
        worked,
      ).map((span) => segmentOfWork(span, piece, options.timeZone)),
    );
  const days = segmentsByDay(occurrence, options.followsSchedule ? 0 : options.defaultDayHours, options.timeZone);
  return worked.length === 0 ? days : days.flatMap((day) => cutDayPiece(day, worked, options.timeZone));
}
