import type { Db } from '../core/db/transaction.js';
import type { AssignmentRow } from '../resources/assignments/table.js';
import { addDays, formatDate, hoursBetween, parseLocalDateTime, type Temporal } from '../core/time.js';
import { callbackBlocks } from './callback-blocks.js';
import { scheduleFacts } from './engine.js';
import { fatigueRange, fatigueReasons, periodHoursReason, type DatedHours, type FatigueSetting } from './fatigue.js';
import { periodHoldsDate, workPeriodsOverlapping } from './overtime.js';
import {
  acceptedCallbacks,
  assignmentsByIds,
  fatigueSettingOf,
  loadQualifications,
  timedMiscHours,
  datedMiscHours,
  workTypesExcludedFromLimits,
} from './reads.js';
import { countsAsWork, holds } from './staffing.js';
import type { ApprovedTimeOff } from './time-off.js';
import { expandWork, type WorkItem } from './work.js';

/*
 * The one definition of availability (docs/schedule.md, "Availability"): may this person work
 * then? Shifts, rotations, trades and callbacks (candidates, starts, acceptances, the runner and
 * its auto-accept, sign-ups, forced hire) ask here, and the reasons it gives are the words users see
 * everywhere. The department's fatigue rules (fatigue.ts) are decided here too, as reasons of kind `fatigue`.
 */

/** A span of local datetimes [start, end). */
interface Span {
  start: string;
  end: string;
}

/** Why a person may not work then, in the order they are checked (the first is the one shown). */
export type ReasonKind = 'working' | 'time_off' | 'lacks' | 'limit' | 'fatigue' | 'empty' | 'not_available';

export interface Reason {
  kind: ReasonKind;
  /** the words users see, e.g. "already working 2027-01-04 07:00–07:00 on Engine 1" */
  text: string;
}

export interface Availability {
  available: boolean;
  /** every reason that applies, in the order of ReasonKind; empty when available */
  reasons: Reason[];
}

/** The hour limits of a callback list (0 = no limit). */
export interface HourLimits {
  max_consecutive_hours: number;
  weekly_limit: number;
  monthly_limit: number;
  yearly_limit: number;
}

export interface AvailabilityRequest extends Span {
  userIds: number[];
  timezone: string;
  /** the person's own work being changed (a shift being edited): never a clash */
  except?: (item: WorkItem) => boolean;
  /** non-deleted assignments the caller read in this transaction, by id: not read again */
  knownAssignments?: ReadonlyMap<number, AssignmentRow>;
  /** qualifiers the work needs, held (user qualifier or current certification) on `date` */
  needs?: { date: string; qualifiers: Array<{ id: number; label: string }> };
  /**
   * Offered extra hours (a callback): accepted callbacks not on an assignment are work too, time
   * off of a `force_include` type does not keep the person away, the list's hour limits apply, and
   * so do "not available" periods and time off exclusion windows (callback-blocks.ts).
   */
  offer?: {
    limits: HourLimits;
    /**
     * The assignment whose open seat is offered: a person whose own approved time off (of any type,
     * callable too) took them off that assignment in the span is never offered their own absence.
     */
    seat?: number | null;
  };
}

export { countsAsWork };

const clock = (local: string) => local.slice(11, 16);

/**
 * A span as reasons show it: `2027-01-04 07:00–19:00`, `2027-01-04 07:00–07:00` (to the next
 * morning), `2027-01-04 00:00–2027-01-07 00:00` (longer).
 */
export function spanText(start: string, end: string): string {
  const startDate = start.slice(0, 10);
  const endDate = end.slice(0, 10);
  const nextMorning = endDate === formatDate(parseLocalDateTime(start)!.add({ days: 1 })) && clock(end) <= clock(start);
  const shortEnd = endDate === startDate || nextMorning;
  return `${startDate} ${clock(start)}–${shortEnd ? clock(end) : `${endDate} ${clock(end)}`}`;
}

/** Work the person already does then; `where` names its assignment or callback. */
export function workingReason(piece: Span, where: string): Reason {
  return { kind: 'working', text: `already working ${spanText(piece.start, piece.end)} on ${where}` };
}

export function timeOffReason(timeOff: ApprovedTimeOff): Reason {
  const span = spanText(timeOff.start, timeOff.written_end);
  return { kind: 'time_off', text: `on approved ${timeOff.time_off_type.name} ${span}` };
}

/** A callable leave that opened the very seat offered: the person is not asked to fill their own absence. */
export function ownAbsenceReason(timeOff: ApprovedTimeOff): Reason {
  return { kind: 'time_off', text: `${timeOffReason(timeOff).text} (the absence that opened this seat)` };
}

export function lacksReason(labels: string[]): Reason {
  return { kind: 'lacks', text: `lacks ${labels.join(', ')}` };
}

/** `whose` the limit is ("the list's", "the user's auto-accept"), e.g. "over the list's weekly limit: 36 of 30 h". */
export function limitReason(whose: string, limit: string, hours: number, of: number): Reason {
  return { kind: 'limit', text: `over ${whose} ${limit} limit: ${hours} of ${of} h` };
}

/** The one sentence of a refusal: "Jack Smith cannot take this shift: lacks FF-01." */
export function refusalMessage(name: string, what: string, reason: Reason | string): string {
  return `${name} cannot take ${what}: ${typeof reason === 'string' ? reason : reason.text}.`;
}

const startOfDay = (date: Temporal.PlainDate) => `${formatDate(date)} 00:00:00`;

/** The calendar periods hour limits count in, around a local datetime: week from Monday, month, year. */
export function limitPeriods(startLocal: string): Record<'week' | 'month' | 'year', Span> {
  const day = parseLocalDateTime(startLocal)!.toPlainDate();
  const week = day.subtract({ days: day.dayOfWeek - 1 });
  const month = day.with({ day: 1 });
  const year = day.with({ month: 1, day: 1 });
  return {
    week: { start: startOfDay(week), end: startOfDay(week.add({ weeks: 1 })) },
    month: { start: startOfDay(month), end: startOfDay(month.add({ months: 1 })) },
    year: { start: startOfDay(year), end: startOfDay(year.add({ years: 1 })) },
  };
}

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

function overlapHours(item: Span, period: Span, timeZone: string): number {
  const start = item.start > period.start ? item.start : period.start;
  const end = item.end < period.end ? item.end : period.end;
  return end > start ? hoursBetween(start, end, timeZone) : 0;
}

/** Hours of the unbroken stretch of work the span would join (work touching or overlapping it). */
function consecutiveHours(span: Span, work: Span[], timeZone: string): number {
  let block = { ...span };
  let grown = true;
  while (grown) {
    grown = false;
    for (const item of work) {
      const touches = item.start <= block.end && item.end >= block.start;
      if (touches && (item.start < block.start || item.end > block.end)) {
        block = {
          start: item.start < block.start ? item.start : block.start,
          end: item.end > block.end ? item.end : block.end,
        };
        grown = true;
      }
    }
  }
  return hoursBetween(block.start, block.end, timeZone);
}

/** The widest period the limits look at, so work is loaded once for every person. */
function loadRange(span: Span, limits: HourLimits | undefined): Span {
  if (!limits) return span;
  const periods = limitPeriods(span.start);
  const reach = Math.max(limits.max_consecutive_hours, 0);
  const spans: Span[] = [
    {
      start: `${formatDate(parseLocalDateTime(span.start)!.subtract({ hours: reach + 24 }))} 00:00:00`,
      end: `${formatDate(parseLocalDateTime(span.end)!.add({ hours: reach + 48 }))} 00:00:00`,
    },
  ];
  if (limits.weekly_limit > 0) spans.push(periods.week);
  if (limits.monthly_limit > 0) spans.push(periods.month);
  if (limits.yearly_limit > 0) spans.push(periods.year);
  return {
    start: spans.map((s) => s.start).sort()[0]!,
    end: spans
      .map((s) => s.end)
      .sort()
      .at(-1)!,
  };
}

/** Work as availability weighs it: where it is, whether it counts toward hour limits, and whether it is work. */
interface Held extends Span {
  where: string;
  counted: boolean;
  /** work a fatigue rule counts: on an assignment whose work counts as work, or an accepted callback */
  work: boolean;
  /** an accepted callback read for the fatigue rules only (no offer): never a clash */
  fatigueOnly?: boolean;
  /** the scheduled work this piece is worked of */
  of?: WorkItem;
}

type DatedByUser = Map<number, DatedHours[]>;

/** The widest of the spans. */
function widest(spans: Span[]): Span {
  return {
    start: spans.map((s) => s.start).reduce((a, b) => (b < a ? b : a)),
    end: spans.map((s) => s.end).reduce((a, b) => (b > a ? b : a)),
  };
}

/** The list's limits the span would pass, given the person's work. */
function limitReasons(span: Span, limits: HourLimits, work: Held[], timeZone: string): Reason[] {
  const counted = work.filter((item) => item.counted);
  const reasons: Reason[] = [];
  if (limits.max_consecutive_hours > 0) {
    const hours = consecutiveHours(span, counted, timeZone);
    if (hours > limits.max_consecutive_hours)
      reasons.push(limitReason("the list's", 'consecutive hours', hours, limits.max_consecutive_hours));
  }
  const periods = limitPeriods(span.start);
  const checks = [
    ['weekly', limits.weekly_limit, periods.week],
    ['monthly', limits.monthly_limit, periods.month],
    ['yearly', limits.yearly_limit, periods.year],
  ] as const;
  for (const [name, limit, period] of checks) {
    if (limit <= 0) continue;
    const worked = counted.reduce((sum, item) => sum + overlapHours(item, period, timeZone), 0);
    const total = Math.round((worked + overlapHours(span, period, timeZone)) * 100) / 100;
    if (total > limit) reasons.push(limitReason("the list's", name, total, limit));
  }
  return reasons;
}

/**
 * The people's work in `range` as availability weighs it (worked pieces after time off, less
 * `except`; with an offer or a fatigue rule on, also accepted callbacks off assignments, and timed
 * misc hours for the fatigue rules), with the schedule's facts it came from.
 */
async function heldWork(
  db: Db,
  orgId: number,
  request: Omit<AvailabilityRequest, 'start' | 'end' | 'needs'> & {
    span: Span;
    range: Span;
    fatigueSpan: Span | null;
    fatigue: FatigueSetting;
  },
): Promise<{ facts: Awaited<ReturnType<typeof scheduleFacts>>; work: Map<number, Held[]>; dated: DatedByUser }> {
  const { userIds, timezone: timeZone, offer, range, fatigueSpan } = request;
  const allWork = offer !== undefined || fatigueSpan !== null;
  // misc hours of a date and a length only: for the period rule alone (fatigue.ts)
  const periodRule = fatigueSpan !== null && request.fatigue.rules.max_period_hours !== null;
  const [facts, callbacks, misc, excludedTypes, datedRows] = await Promise.all([
    scheduleFacts(db, orgId, { ...range, userIds, timezone: timeZone, knownAssignments: request.knownAssignments }),
    allWork ? acceptedCallbacks(db, orgId, userIds, range, { unplacedOnly: true }) : [],
    fatigueSpan ? timedMiscHours(db, orgId, userIds, fatigueSpan) : [],
    offer ? workTypesExcludedFromLimits(db, orgId) : new Set<number>(),
    periodRule ? datedMiscHours(db, orgId, userIds, fatigueSpan.start.slice(0, 10), fatigueSpan.end.slice(0, 10)) : [],
  ]);
  const dated: DatedByUser = new Map(userIds.map((id) => [id, []]));
  for (const row of datedRows) dated.get(row.user_id)?.push(row);
  const worked = facts.worked.filter((item) => !request.except?.(item));
  // the assignments of the work weighed: all of it for an offer's limits or fatigue, else those that clash (named)
  const weighed = allWork ? worked : worked.filter((item) => overlaps(item, request.span));
  const assignments = await assignmentsByIds(
    db,
    orgId,
    weighed.map((item) => item.assignment_id),
    request.knownAssignments,
  );
  // an assignment deleted since counts (its work is still there)
  const isWork = (item: WorkItem) => {
    const assignment = assignments.get(item.assignment_id);
    return !assignment || assignment.deleted || countsAsWork(assignment);
  };
  const counts = (item: WorkItem) => !excludedTypes.has(item.work_type_id) && isWork(item);
  const work = new Map<number, Held[]>(userIds.map((id) => [id, []]));
  for (const item of worked) {
    const where = assignments.get(item.assignment_id)?.name ?? `assignment #${item.assignment_id}`;
    const held = { start: item.start, end: item.end, where, counted: counts(item), work: isWork(item), of: item };
    work.get(item.user_id)?.push(held);
  }
  for (const c of callbacks) {
    const where = `callback #${c.callback_id}`;
    // without an offer, accepted callbacks are weighed by the fatigue rules only (never a clash)
    work.get(c.user_id)?.push({ start: c.start, end: c.end, where, counted: true, work: true, fatigueOnly: !offer });
  }
  // timed misc hours (a sign-up's) are worked hours: weighed by the fatigue rules only (never a clash)
  for (const m of misc) {
    const where = m.notes ?? 'misc hours';
    work.get(m.user_id)?.push({ start: m.start, end: m.end, where, counted: false, work: true, fatigueOnly: true });
  }
  return { facts, work, dated };
}

/**
 * May each person work [start, end)? Available when nothing below applies; otherwise every reason,
 * in this order: already working (worked pieces after time off, less `except`; with an offer, also
 * accepted callbacks off assignments), on approved time off (with an offer, not of a
 * `force_include` type), lacking a qualifier the work needs, over a limit of the offer's list,
 * over a fatigue rule of the department (fatigue.ts; with no rule on, nothing more is read), an
 * empty span, not available (a period of theirs or a time off exclusion window).
 */
export async function availabilityOf(
  db: Db,
  orgId: number,
  request: AvailabilityRequest,
): Promise<Map<number, Availability>> {
  const { userIds, timezone: timeZone, offer, needs } = request;
  const span = { start: request.start, end: request.end };
  const fatigue = await fatigueSettingOf(db, orgId);
  const fatigueSpan = fatigueRange(span, fatigue);
  const range = fatigueSpan ? widest([loadRange(span, offer?.limits), fatigueSpan]) : loadRange(span, offer?.limits);
  const [{ facts, work, dated }, qualifications, blocks] = await Promise.all([
    heldWork(db, orgId, { ...request, span, range, fatigueSpan, fatigue }),
    needs?.qualifiers.length ? loadQualifications(db, orgId, userIds) : undefined,
    offer ? callbackBlocks(db, orgId, userIds, span) : new Map<number, string>(),
  ]);
  const overlapping = facts.timeOff.map((cover) => cover.timeOff).filter((t) => overlaps(t, span));
  const timeOff = overlapping.filter((t) => !(offer && t.time_off_type.force_include));
  const seat = offer?.seat ?? null;
  /** the person's approved time off that took them off the offered seat in the span */
  const ownAbsence = (id: number) =>
    seat === null
      ? undefined
      : overlapping.find(
          (t) =>
            t.user_id === id &&
            facts.work.some((w) => w.user_id === id && w.assignment_id === seat && overlaps(w, span) && overlaps(w, t)),
        );
  const hours = hoursBetween(span.start, span.end, timeZone);
  return new Map(
    userIds.map((id) => {
      const held = work.get(id)!;
      const reasons: Reason[] = [];
      const clash = held.find((item) => !item.fatigueOnly && overlaps(item, span));
      if (clash) reasons.push(workingReason(clash, clash.where));
      const off = timeOff.find((t) => t.user_id === id);
      const opened = off ? undefined : ownAbsence(id);
      if (off) reasons.push(timeOffReason(off));
      else if (opened) reasons.push(ownAbsenceReason(opened));
      const missing = (needs?.qualifiers ?? []).filter((q) => !holds(qualifications!, id, q.id, needs!.date));
      if (missing.length > 0) reasons.push(lacksReason(missing.map((q) => q.label)));
      if (offer) reasons.push(...limitReasons(span, offer.limits, held, timeZone));
      const fatigueWork = fatigueSpan ? held.filter((item) => item.work) : [];
      for (const text of fatigueReasons(span, fatigueWork, fatigue, dated.get(id)))
        reasons.push({ kind: 'fatigue', text });
      if (offer) {
        if (hours <= 0) reasons.push({ kind: 'empty', text: 'empty callback' });
        const block = blocks.get(id);
        if (block) reasons.push({ kind: 'not_available', text: block });
      }
      return [id, { available: reasons.length === 0, reasons }];
    }),
  );
}

/**
 * Misc hours of a date and a length (no place in time), as written: the fatigue rules' period rule,
 * the only one that counts them (fatigue.ts), over the work period holding their date, with the
 * person's work and dated hours there. A reason of kind `fatigue`, or none (also with the rule off).
 */
export async function datedHoursFatigue(
  db: Db,
  orgId: number,
  request: { userId: number; date: string; timezone: string },
): Promise<Reason[]> {
  const { userId, date, timezone } = request;
  const fatigue = await fatigueSettingOf(db, orgId);
  if (fatigue.rules.max_period_hours === null) return [];
  const day = { start: `${date} 00:00:00`, end: `${addDays(date, 1)} 00:00:00` };
  const period = workPeriodsOverlapping(fatigue.workPeriod, day).find((p) => periodHoldsDate(p, date));
  if (!period) return [];
  const load = { userIds: [userId], timezone, span: period, range: period, fatigueSpan: period, fatigue };
  const { work, dated } = await heldWork(db, orgId, load);
  const held = work.get(userId)!.filter((item) => item.work);
  const text = periodHoursReason(period, held, fatigue, dated.get(userId));
  return text ? [{ kind: 'fatigue', text }] : [];
}

/**
 * Whether a series may hold the person's occurrences in [start, end): the first clash of one of
 * its occurrences with other scheduled work of the person (another series' occurrence or a one-off
 * shift, as planned: a series is laid against the plan, time off aside), or null.
 */
export async function seriesClash(
  db: Db,
  orgId: number,
  series: Span & { id: number; userId: number; timezone: string },
): Promise<Reason | null> {
  const work = await expandWork(db, orgId, { ...series, userIds: [series.userId] });
  const isOwn = (item: WorkItem) => item.kind === 'recurring' && item.id === series.id;
  const others = work.filter((item) => !isOwn(item));
  for (const occurrence of work.filter(isOwn)) {
    const clash = others.find((other) => overlaps(other, occurrence));
    if (!clash) continue;
    const names = await assignmentsByIds(db, orgId, [clash.assignment_id]);
    return workingReason(clash, names.get(clash.assignment_id)?.name ?? `assignment #${clash.assignment_id}`);
  }
  return null;
}

/**
 * The department's fatigue rules over a series' occurrences in [start, end) (the series as stored,
 * against the person's other work as availabilityOf weighs it): the first occurrence, by date, that
 * would break a rule, with every rule's words; null when none does or no rule is on.
 */
export async function seriesFatigue(
  db: Db,
  orgId: number,
  series: Span & { id: number; userId: number; timezone: string },
): Promise<{ date: string; reasons: Reason[] } | null> {
  const span = { start: series.start, end: series.end };
  const fatigue = await fatigueSettingOf(db, orgId);
  const range = fatigueRange(span, fatigue);
  if (!range) return null;
  const userIds = [series.userId];
  const request = { userIds, timezone: series.timezone, span, range, fatigueSpan: range, fatigue };
  const { work, dated } = await heldWork(db, orgId, request);
  const held = work.get(series.userId)!.filter((item) => item.work);
  const isOwn = (item: Held) => item.of?.kind === 'recurring' && item.of.id === series.id && overlaps(item, span);
  const own = held.filter(isOwn);
  for (const piece of own) {
    const reasons = fatigueReasons(piece, held, fatigue, dated.get(series.userId)).map(
      (text): Reason => ({ kind: 'fatigue', text }),
    );
    if (reasons.length > 0) return { date: piece.of!.date, reasons };
  }
  return null;
}
