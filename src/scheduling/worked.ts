import { hoursBetween, round } from '../core/time.js';
import { earlier, later, overlapHours, subtractIntervals, type Interval } from './segments.js';
import type { WorkItem } from './work.js';

/**
 * A piece of scheduled work that is worked: the part of a shift or rotation occurrence that no
 * approved time off covers. A shift covered in its middle leaves two pieces; one covered entirely
 * leaves none. Pure.
 */
export interface WorkedPiece extends WorkItem {
  /** the scheduled (uncut) start and end of the work this piece is part of */
  scheduled_start: string;
  scheduled_end: string;
  /** real hours worked: length − break + hold-over (hold-over only on the piece that reaches the scheduled end) */
  worked_hours: number;
}

function pieceOf(item: WorkItem, span: Interval, timeZone: string): WorkedPiece {
  const whole = span.start === item.start && span.end === item.end;
  const length = whole ? item.length : hoursBetween(span.start, span.end, timeZone);
  const breakStart = item.break_start && item.break_end ? later(item.break_start, span.start) : null;
  const breakEnd = item.break_start && item.break_end ? earlier(item.break_end, span.end) : null;
  const hasBreak = breakStart !== null && breakEnd !== null && breakStart < breakEnd;
  const breakLength = whole
    ? item.break_length
    : hasBreak
      ? overlapHours(span.start, span.end, breakStart, breakEnd, timeZone)
      : 0;
  const holdOver = span.end === item.end ? item.hold_over : 0;
  return {
    ...item,
    start: span.start,
    end: span.end,
    length: round(length + holdOver),
    break_start: hasBreak ? breakStart : null,
    break_end: hasBreak ? breakEnd : null,
    break_length: breakLength,
    hold_over: holdOver,
    scheduled_start: item.start,
    scheduled_end: item.end,
    worked_hours: round(length - breakLength + holdOver),
  };
}

export { subtractIntervals };

/** The work as worked: each item less the approved time off of its user (by user). */
export function workedPieces(
  work: WorkItem[],
  timeOffByUser: Map<number, Interval[]>,
  timeZone: string,
): WorkedPiece[] {
  return work.flatMap((item) =>
    subtractIntervals(item, timeOffByUser.get(item.user_id) ?? []).map((span) => pieceOf(item, span, timeZone)),
  );
}
