import type { Db } from '../core/db/transaction.js';
import { addDays, normalizeLocalDateTime } from '../core/time.js';
import { occurrencesInRange } from './recurrence.js';
import type { TimeOffRow } from '../resources/time-offs/table.js';
import { defaultDayHoursOf, tradeHoursCountFor, tradeSubstitutesOf } from './reads.js';
import { creditTradeHours } from './trade-hours.js';
import { approvedTimeOffs, closeMinute, type ApprovedTimeOff } from './time-off.js';
import { splitOccurrence, type Interval, type Segment } from './segments.js';
import {
  expandSchedule,
  LOOKBACK_DAYS,
  type ExpandedWork,
  type KellyDay,
  type SeriesSpan,
  type WorkItem,
  type WorkRange,
} from './work.js';
import { workedPieces, type WorkedPiece } from './worked.js';

/*
 * The scheduling engine: the one place that answers who works when (docs/schedule.md). Every
 * consumer (GET /schedule, time off splitting and charging, payroll, overtime, callbacks, trades,
 * the shift conflict check, calendar feeds, vacancies) reads these functions instead of
 * recombining rotations, shifts and time off itself.
 */

/** Approved time off and the segments it splits into along the user's work. */
export interface TimeOffCover {
  timeOff: ApprovedTimeOff;
  segments: Segment[];
}

export interface ScheduleFacts {
  timeZone: string;
  /** scheduled work overlapping the range, before time off */
  work: WorkItem[];
  /** the work as worked: `work` less approved time off, in pieces (a piece may lie outside the range) */
  worked: WorkedPiece[];
  kellyDays: KellyDay[];
  /** approved time off overlapping the range, each with its segments */
  timeOff: TimeOffCover[];
}

/** The longest piece of work reaching past a range's end (a 72-hour shift at most). */
const LOOKAHEAD_DAYS = 3;

/** Whether the user follows a rotation on any date of [start, end). */
function followsSchedule(series: SeriesSpan[] | undefined, span: Interval): boolean {
  if (!series) return false;
  const first = span.start.slice(0, 10);
  const last = span.end.slice(0, 10);
  return series.some((s) => s.start_date <= last && (s.end_date === null || s.end_date >= first));
}

const groupByUser = <T extends { user_id: number }>(items: T[]) => {
  const map = new Map<number, T[]>();
  for (const item of items) {
    const list = map.get(item.user_id);
    if (list) list.push(item);
    else map.set(item.user_id, [item]);
  }
  return map;
};

/** The work time off may cover: everything but work booked over time off on purpose. */
const coverable = (work: WorkItem[]) => work.filter((item) => !item.overrides_time_off);

/** Segments of occurrences of a user's time off, from the user's work over their span. */
function segmentsOfOccurrence(
  occurrence: Interval,
  userWork: WorkItem[],
  series: SeriesSpan[] | undefined,
  defaultDayHours: number,
  timeZone: string,
): Segment[] {
  // work booked over the time off (a recall) is worked: the time off does not cover those hours
  const recalled = userWork.filter((item) => item.overrides_time_off).map(({ start, end }) => ({ start, end }));
  return splitOccurrence(occurrence, coverable(userWork), {
    followsSchedule: followsSchedule(series, occurrence),
    defaultDayHours,
    timeZone,
    worked: recalled,
  });
}

/** Worked pieces of the work, less the approved time off (work booked over time off stays whole). */
function worked(work: WorkItem[], timeOff: ApprovedTimeOff[], timeZone: string): WorkedPiece[] {
  const cuts = new Map(
    [...groupByUser(timeOff)].map(([userId, list]) => [userId, list.map((t) => ({ start: t.start, end: t.end }))]),
  );
  const [plain, kept] = [coverable(work), work.filter((item) => item.overrides_time_off)];
  return [...workedPieces(plain, cuts, timeZone), ...workedPieces(kept, new Map(), timeZone)].sort(workedOrder);
}

/** The order of worked pieces: by start; at the same start rotation occurrences first, then by user and id. */
export function workedOrder(a: WorkedPiece, b: WorkedPiece): number {
  return a.start < b.start
    ? -1
    : a.start > b.start
      ? 1
      : Number(b.recurring) - Number(a.recurring) || a.user_id - b.user_id || a.id - b.id;
}

function widen(range: Interval): Interval {
  return {
    start: `${addDays(range.start.slice(0, 10), -LOOKBACK_DAYS)} 00:00:00`,
    end: `${addDays(range.end.slice(0, 10), LOOKAHEAD_DAYS + 1)} 00:00:00`,
  };
}

/**
 * Who works when in [start, end): the scheduled work, the work as worked after approved time off,
 * Kelly days, and the time off with its segments (`countedAsApproved`: pending entries counted as
 * approved, what approving them would leave). Five statements whatever the range (four for the
 * work, one for the time off). Segments are exact for work dated in the range; an occurrence of
 * time off reaching beyond it is split along the work loaded here.
 */
export async function scheduleFacts(
  db: Db,
  orgId: number,
  range: WorkRange & { timezone: string; countedAsApproved?: number[] },
): Promise<ScheduleFacts> {
  const span = { start: normalizeLocalDateTime(range.start), end: normalizeLocalDateTime(range.end) };
  const wide = widen(span);
  const [expanded, timeOff] = await Promise.all([
    expandSchedule(db, orgId, range),
    approvedTimeOffs(db, orgId, wide.start, wide.end, range.userIds, range.countedAsApproved),
  ]);
  return factsOf(expanded, timeOff, span, range.timezone);
}

function factsOf(expanded: ExpandedWork, timeOff: ApprovedTimeOff[], span: Interval, timeZone: string): ScheduleFacts {
  const workByUser = groupByUser(expanded.items);
  const covers = timeOff
    .filter((t) => t.start < span.end && t.end > span.start)
    .map((t) => ({
      timeOff: t,
      segments: segmentsOfOccurrence(
        t,
        workByUser.get(t.user_id) ?? [],
        expanded.seriesByUser.get(t.user_id),
        t.time_off_type.default_day_hours,
        timeZone,
      ),
    }));
  return {
    timeZone,
    work: expanded.items,
    worked: worked(expanded.items, timeOff, timeZone),
    kellyDays: expanded.kellyDays,
    timeOff: covers,
  };
}

/** One segment of an entry (approved or pending). */
export interface EntrySegment {
  entry: TimeOffRow;
  segment: Segment;
}

const byStartThenId = (a: EntrySegment, b: EntrySegment) =>
  a.segment.start < b.segment.start ? -1 : a.segment.start > b.segment.start ? 1 : a.entry.id - b.entry.id;

/**
 * Segments of the entries' occurrences overlapping [rangeStart, rangeEnd), each occurrence split
 * along its user's work over the whole occurrence (exact, whatever the range). Three to six
 * statements: the types, and the users' work over the occurrences' span.
 */
export async function segmentsOfEntries(
  db: Db,
  orgId: number,
  entries: TimeOffRow[],
  rangeStart: string,
  rangeEnd: string,
  timeZone: string,
): Promise<EntrySegment[]> {
  const occurrences = entries.flatMap((entry) =>
    occurrencesInRange(entry, rangeStart, rangeEnd).map((o) => ({
      entry,
      occurrence: { start: o.start, end: closeMinute(o.end) },
    })),
  );
  if (occurrences.length === 0) return [];
  const span = {
    start: occurrences.reduce(
      (min, o) => (o.occurrence.start < min ? o.occurrence.start : min),
      occurrences[0]!.occurrence.start,
    ),
    end: occurrences.reduce(
      (max, o) => (o.occurrence.end > max ? o.occurrence.end : max),
      occurrences[0]!.occurrence.end,
    ),
  };
  const userIds = [...new Set(occurrences.map((o) => o.entry.user_id))];
  const [expanded, types] = await Promise.all([
    expandSchedule(db, orgId, { ...span, userIds, timezone: timeZone }),
    defaultDayHoursOf(
      db,
      orgId,
      entries.map((e) => e.time_off_type_id),
    ),
  ]);
  const workByUser = groupByUser(expanded.items);
  return occurrences
    .flatMap(({ entry, occurrence }) =>
      segmentsOfOccurrence(
        occurrence,
        workByUser.get(entry.user_id) ?? [],
        expanded.seriesByUser.get(entry.user_id),
        types.get(entry.time_off_type_id) ?? 24,
        timeZone,
      ).map((segment) => ({ entry, segment })),
    )
    .sort(byStartThenId);
}

/**
 * Hours an entry charges: the sum of its segments' lengths, what approval takes from a bank and
 * what payroll pays as time off. Recurring leave is not taken from a bank (0).
 */
export async function chargedHours(db: Db, orgId: number, entry: TimeOffRow, timeZone: string): Promise<number> {
  if (entry.rrule) return 0;
  const segments = await segmentsOfEntries(db, orgId, [entry], entry.start, closeMinute(entry.end), timeZone);
  return Math.round(segments.reduce((sum, { segment }) => sum + segment.length, 0) * 10_000) / 10_000;
}

/**
 * Worked pieces and exact time off segments for the span, as payroll and overtime need them: work
 * placed by its scheduled start, segments by their anchor, both in [start, end); each piece
 * credited to whose hours of work it is (trade-hours.ts: a trade's hours to the scheduled person
 * by default), with `worked_by` who worked it. The time off's
 * segments are split along the users' work over each whole occurrence.
 */
export async function paidFacts(db: Db, orgId: number, span: Interval, timeZone: string, userIds?: number[]) {
  const countFor = await tradeHoursCountFor(db, orgId);
  // the named users' traded hours are worked by others: their work is read too (trade-hours.ts)
  const substitutes =
    userIds && countFor === 'scheduled' ? await tradeSubstitutesOf(db, orgId, userIds, widen(span)) : [];
  const loaded = userIds ? [...new Set([...userIds, ...substitutes])] : undefined;
  const named = (userId: number) => !userIds || userIds.includes(userId);
  const facts = await scheduleFacts(db, orgId, { ...span, userIds: loaded, timezone: timeZone });
  const reaching = facts.timeOff.filter((c) => c.timeOff.start < span.start || c.timeOff.end > span.end);
  let covers = facts.timeOff;
  if (reaching.length > 0) {
    // occurrences reaching past the loaded work: split them along their users' whole span
    const wholeSpan = {
      start: reaching.reduce((min, c) => (c.timeOff.start < min ? c.timeOff.start : min), span.start),
      end: reaching.reduce((max, c) => (c.timeOff.end > max ? c.timeOff.end : max), span.end),
    };
    const users = [...new Set(reaching.map((c) => c.timeOff.user_id))];
    const [expanded, timeOff] = await Promise.all([
      expandSchedule(db, orgId, { ...wholeSpan, userIds: users, timezone: timeZone }),
      approvedTimeOffs(db, orgId, wholeSpan.start, wholeSpan.end, users),
    ]);
    const exact = new Map(
      factsOf(expanded, timeOff, wholeSpan, timeZone).timeOff.map((c) => [`${c.timeOff.id}|${c.timeOff.start}`, c]),
    );
    covers = facts.timeOff.map((c) => exact.get(`${c.timeOff.id}|${c.timeOff.start}`) ?? c);
  }
  const inSpan = (at: string) => at >= span.start && at < span.end;
  return {
    worked: creditTradeHours(facts.worked, countFor).filter(
      (piece) => inSpan(piece.scheduled_start) && named(piece.user_id),
    ),
    timeOff: covers
      .filter((c) => named(c.timeOff.user_id))
      .flatMap((c) => c.segments.filter((s) => inSpan(s.anchor)).map((segment) => ({ timeOff: c.timeOff, segment }))),
  };
}

export type { ApprovedTimeOff, KellyDay, Segment, WorkedPiece, WorkItem };
