import { addDays, normalizeLocalDateTime } from '../../core/time.js';
import type { LeaveDates } from '../../scheduling/index.js';

// the span of date-only leave is the engine's (it follows the person's work after each change)
export { type LeaveDates, workSpanOfDates } from '../../scheduling/index.js';

const DATE_ONLY = /^\s*\d{4}-\d{2}-\d{2}\s*$/;

/**
 * The start and end of a request's body. Two bare dates are date-only leave (docs/time-off.md#date-only-leave):
 * until the person's work is read (workSpanOfDates) they stand for first 00:00 to the day after the
 * last, 00:00, so that ordering and rule checks judge the dates; any other form is a datetime.
 */
export function leaveInput(start: string, end: string): { start: string; end: string; dates: LeaveDates | null } {
  if (DATE_ONLY.test(start) && DATE_ONLY.test(end)) {
    const [first, last] = [start.trim(), end.trim()];
    return { start: `${first} 00:00:00`, end: `${addDays(last, 1)} 00:00:00`, dates: { first, last } };
  }
  return { start: normalizeLocalDateTime(start), end: normalizeLocalDateTime(end), dates: null };
}
