import { formatLocalDateTime, hoursBetween, parseLocalDateTime, round } from '../../core/time.js';
import type { Occurrence } from './recurrence.js';
import type { WorkPiece } from './work.js';

/** One item of GET /time_offs: a piece of an occurrence along the user's rotation. */
export interface Segment {
  start: string;
  end: string;
  /** hours including break */
  length: number;
  /** hours without break */
  real_length: number;
}

const later = (a: string, b: string) => (a > b ? a : b);
const earlier = (a: string, b: string) => (a < b ? a : b);

function overlapHours(start: string, end: string, otherStart: string | null, otherEnd: string | null, timeZone: string): number {
  if (!otherStart || !otherEnd) return 0;
  const from = later(start, otherStart);
  const to = earlier(end, otherEnd);
  return from < to ? hoursBetween(from, to, timeZone) : 0;
}

function segmentOfPiece(occurrence: Occurrence, piece: WorkPiece, timeZone: string): Segment {
  if (piece.start >= occurrence.start && piece.end <= occurrence.end) {
    return { start: piece.start, end: piece.end, length: piece.length, real_length: round(piece.length - piece.break_length) };
  }
  const start = later(occurrence.start, piece.start);
  const end = earlier(occurrence.end, piece.end);
  const length = hoursBetween(start, end, timeZone);
  const breakHours = overlapHours(start, end, piece.break_start, piece.break_end, timeZone);
  return { start, end, length, real_length: round(length - breakHours) };
}

/**
 * Without scheduled work in the span: one segment per day, in 24-hour wall-clock steps from the
 * occurrence's start (07:00 to 07:00 the next day, …), the last one cut at the occurrence's end.
 */
function segmentsByDay(occurrence: Occurrence, timeZone: string): Segment[] {
  const segments: Segment[] = [];
  const first = parseLocalDateTime(occurrence.start)!;
  for (let day = 0, start = occurrence.start; start < occurrence.end; day += 1) {
    const end = earlier(formatLocalDateTime(first.add({ days: day + 1 })), occurrence.end);
    const length = hoursBetween(start, end, timeZone);
    segments.push({ start, end, length, real_length: length });
    start = end;
  }
  return segments;
}

/**
 * Splits one occurrence of time off along the user's work: one segment per scheduled piece of work
 * it overlaps (cut to the occurrence), or, when it overlaps none, one segment per day.
 */
export function splitOccurrence(occurrence: Occurrence, work: WorkPiece[], timeZone: string): Segment[] {
  const pieces = work
    .filter((piece) => piece.start < occurrence.end && piece.end > occurrence.start)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  if (pieces.length === 0) return segmentsByDay(occurrence, timeZone);
  return pieces.map((piece) => segmentOfPiece(occurrence, piece, timeZone));
}
