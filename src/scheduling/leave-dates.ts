import type { Db } from '../core/db/transaction.js';
import { addDays } from '../core/time.js';
import { expandWork } from './work.js';

/** Leave entered as dates (both ends bare `YYYY-MM-DD`): the first and last date, both included. */
export interface LeaveDates {
  first: string;
  last: string;
}

/**
 * The span date-only leave covers: the person's work that starts on those dates, whole, and the
 * dates themselves in between. It begins at the first date's midnight or at the end of work begun
 * the day before, whichever is later (a 07:00 to 07:00 tour of the day before is not cut), or at
 * the first work of the first date when that is earlier; it ends at the day after the last date,
 * midnight, or at the end of the last covered work, whichever is later.
 */
export async function workSpanOfDates(
  db: Db,
  orgId: number,
  userId: number,
  dates: LeaveDates,
  timezone: string,
): Promise<{ start: string; end: string }> {
  const midnight = `${dates.first} 00:00:00`;
  const dayAfter = `${addDays(dates.last, 1)} 00:00:00`;
  const work = (
    await expandWork(db, orgId, {
      start: `${addDays(dates.first, -2)} 00:00:00`,
      end: `${addDays(dates.last, 3)} 00:00:00`,
      userIds: [userId],
      timezone,
    })
  ).filter((item) => item.user_id === userId);
  const covered = work.filter((item) => item.start >= midnight && item.start < dayAfter);
  let start = midnight;
  for (const item of work) if (item.start < midnight && item.end > start) start = item.end;
  for (const item of covered) if (item.start < start) start = item.start;
  let end = dayAfter;
  for (const item of covered) if (item.end > end) end = item.end;
  return { start, end };
}
