import type { Db } from '../core/db/transaction.js';
import { formatLocalDateTime, parseLocalDateTime } from '../core/time.js';
import { availabilityPeriodsOf } from './reads.js';
import { approvedTimeOffs } from './time-off.js';

/** The widest callback exclusion window a time off type may set (hours). */
export const MAX_CALLBACK_EXCLUSION_HOURS = 168;

const shift = (local: string, hours: number) => formatLocalDateTime(parseLocalDateTime(local)!.add({ hours }));

/**
 * Why each of the users may not be offered work in [start, end) (local datetimes) beyond being busy:
 * a "not available" period of theirs overlapping it, or approved time off whose type's
 * `callback_exclusion_hours` window reaches it (time off starting less than N hours after the span
 * ends, or ending less than N hours before it starts). Users without a block are absent from the map.
 */
export async function callbackBlocks(
  db: Db,
  orgId: number,
  userIds: number[],
  span: { start: string; end: string },
): Promise<Map<number, string>> {
  const blocks = new Map<number, string>();
  if (userIds.length === 0) return blocks;
  const [unavailable, timeOff] = await Promise.all([
    availabilityPeriodsOf(db, orgId, userIds, span),
    approvedTimeOffs(
      db,
      orgId,
      shift(span.start, -MAX_CALLBACK_EXCLUSION_HOURS),
      shift(span.end, MAX_CALLBACK_EXCLUSION_HOURS),
      userIds,
    ),
  ]);
  for (const period of unavailable) {
    if (blocks.has(period.user_id)) continue;
    const why = period.reason ? ` (${period.reason})` : '';
    blocks.set(period.user_id, `not available from ${period.start} to ${period.end}${why}`);
  }
  for (const entry of timeOff) {
    const hours = entry.time_off_type.callback_exclusion_hours;
    if (hours <= 0 || blocks.has(entry.user_id)) continue;
    if (entry.start < shift(span.end, hours) && entry.end > shift(span.start, -hours))
      blocks.set(
        entry.user_id,
        `within ${hours} hours of approved time off ` +
          `(${entry.time_off_type.name}, ${entry.start} to ${entry.written_end})`,
      );
  }
  return blocks;
}
