import type { Db } from '../../core/db/transaction.js';
import { formatLocalDateTime, hoursBetween, parseLocalDateTime } from '../../core/time.js';
import { availabilityOf, scheduleFacts } from '../../scheduling/index.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { ForcedListRow } from './table.js';

/** One member of the forced list as a forced hire went through it (docs/contract-rules.md, "Forced hire"). */
export interface ExplainedMember {
  /** 1-based place in the order */
  position: number;
  user_id: number;
  name: string;
  /** local datetime of their last forced shift; null: never forced (they come first) */
  last_forced: string | null;
  /** the seniority the order falls back on (earliest first) */
  date_of_hire: string | null;
  /** forced: chosen; skipped: not available or inside a buffer (`reason`); not reached: after the one forced */
  verdict: 'forced' | 'skipped' | 'not reached';
  reason: string | null;
}

interface Span {
  start: string;
  end: string;
}

const minute = (local: string) => local.slice(0, 16);
const before = (local: string, hours: number) => formatLocalDateTime(parseLocalDateTime(local)!.subtract({ hours }));

/**
 * The forced list's order: never forced first, then the longest since last forced, then seniority
 * (earliest date of hire, none last), then last name, first name and id.
 */
export function forcedOrder(members: UserRow[], lastForced: Map<number, string>): UserRow[] {
  const text = (v: string | null | undefined) => v ?? '';
  return [...members].sort((a, b) => {
    const [fa, fb] = [lastForced.get(a.id), lastForced.get(b.id)];
    if (fa !== fb) return fa === undefined ? -1 : fb === undefined ? 1 : fa < fb ? -1 : 1;
    const [ha, hb] = [a.date_of_hire, b.date_of_hire];
    if (ha !== hb) return ha === null ? 1 : hb === null ? -1 : ha < hb ? -1 : 1;
    return (
      text(a.last_name).localeCompare(text(b.last_name)) ||
      text(a.first_name).localeCompare(text(b.first_name)) ||
      a.id - b.id
    );
  });
}

/** Unbroken stretches of work: pieces that touch or overlap are one tour. */
function tours(pieces: Span[]): Span[] {
  const merged: Span[] = [];
  for (const piece of [...pieces].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))) {
    const last = merged.at(-1);
    if (last && piece.start <= last.end) last.end = piece.end > last.end ? piece.end : last.end;
    else merged.push({ ...piece });
  }
  return merged;
}

/**
 * The buffers of the list, per member inside one, in the words the order shows:
 * - time off: approved time off that ended less than `time_off_buffer_hours` before the start;
 * - long tour: a tour of `long_tour_hours` or more that ended less than `long_tour_buffer_hours`
 *   before the start.
 * Time off or work overlapping the span itself is availability's (availabilityOf), not a buffer.
 */
export async function bufferReasons(
  db: Db,
  orgId: number,
  list: ForcedListRow,
  userIds: number[],
  span: Span,
  timezone: string,
): Promise<Map<number, string>> {
  const reasons = new Map<number, string>();
  const timeOffHours = list.time_off_buffer_hours;
  const tourHours = list.long_tour_hours;
  const tourBuffer = tourHours > 0 ? list.long_tour_buffer_hours : 0;
  const reach = Math.max(timeOffHours, tourBuffer > 0 ? tourBuffer + tourHours + 24 : 0);
  if (reach <= 0 || userIds.length === 0) return reasons;
  const facts = await scheduleFacts(db, orgId, {
    start: before(span.start, reach),
    end: span.start,
    userIds,
    timezone,
  });
  const timeOffFrom = before(span.start, timeOffHours);
  const tourFrom = before(span.start, tourBuffer);
  for (const id of userIds) {
    const off = facts.timeOff
      .map((cover) => cover.timeOff)
      .filter((t) => t.user_id === id && t.end <= span.start && t.end > timeOffFrom)
      .sort((a, b) => (a.end < b.end ? 1 : -1))[0];
    if (timeOffHours > 0 && off) {
      reasons.set(
        id,
        `inside the time-off buffer: approved ${off.time_off_type.name} time off ended ${minute(off.end)}, ` +
          `less than ${timeOffHours} hours before the start`,
      );
      continue;
    }
    if (tourBuffer <= 0) continue;
    const own = facts.worked.filter((piece) => piece.user_id === id && piece.start < span.start);
    const tour = tours(own)
      .filter((t) => t.end <= span.start && t.end > tourFrom)
      .find((t) => hoursBetween(t.start, t.end, timezone) >= tourHours);
    if (tour)
      reasons.set(
        id,
        `inside the long-tour buffer: worked ${hoursBetween(tour.start, tour.end, timezone)} hours ` +
          `(${minute(tour.start)} to ${minute(tour.end)}), a tour of ${tourHours} hours or more ` +
          `ended less than ${tourBuffer} hours before the start`,
      );
  }
  return reasons;
}

/**
 * Goes down the order: the first member available (availabilityOf, THE availability check, with
 * its words) and outside every buffer is forced; those before are skipped with the reason, those
 * after not reached. Answers the explained order and the one forced (undefined: nobody eligible).
 */
export async function explainOrder(
  db: Db,
  orgId: number,
  list: ForcedListRow,
  members: UserRow[],
  lastForced: Map<number, string>,
  span: Span,
  timezone: string,
): Promise<{ explained: ExplainedMember[]; forced: UserRow | undefined }> {
  const ordered = forcedOrder(members, lastForced);
  const ids = ordered.map((m) => m.id);
  const [availability, buffers] = await Promise.all([
    availabilityOf(db, orgId, { ...span, userIds: ids, timezone }),
    bufferReasons(db, orgId, list, ids, span, timezone),
  ]);
  let forced: UserRow | undefined;
  const explained = ordered.map((member, index): ExplainedMember => {
    const base = {
      position: index + 1,
      user_id: member.id,
      name: fullName(member),
      last_forced: lastForced.get(member.id) ?? null,
      date_of_hire: member.date_of_hire,
    };
    if (forced) return { ...base, verdict: 'not reached', reason: null };
    const unavailable = availability.get(member.id)?.reasons ?? [];
    const reason = unavailable.length ? unavailable.map((r) => r.text).join('; ') : buffers.get(member.id);
    if (reason) return { ...base, verdict: 'skipped', reason };
    forced = member;
    const since = base.last_forced ? `last forced ${minute(base.last_forced)}` : 'never forced';
    return { ...base, verdict: 'forced', reason: `the first available outside the buffers (${since})` };
  });
  return { explained, forced };
}
