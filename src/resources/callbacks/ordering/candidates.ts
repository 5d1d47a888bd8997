import type { Db } from '../../../core/db/transaction.js';
import { formatDate, hoursBetween, parseLocalDateTime, type Temporal } from '../../../core/time.js';
import { callbackBlocks, holds, loadQualifications, scheduleFacts, type WorkItem } from '../../../scheduling/index.js';
import { findAssignmentsByIds } from '../../assignments/repository.js';
import { listMembers, type ListLimitsRow, type ListMember } from '../../lists/repository.js';
import { workTypesExcludedFromCallbacks } from '../../work-types/repository.js';
import { acceptedCallbackSpans, lastContacts } from './repository.js';

/** The orders a callback may offer its list in (`ordering`). */
export type CallbackOrdering = 'rotating' | 'hours' | 'seniority';

/** A span of local datetimes [start, end); `counted` false for work that does not count toward the hour limits. */
interface Span {
  start: string;
  end: string;
  counted?: boolean;
}

export interface SkippedCandidate {
  user_id: number;
  reason: string;
}

export interface CandidateSelection {
  /** eligible user ids in contact order */
  userIds: number[];
  skipped: SkippedCandidate[];
}

const startOfDay = (date: Temporal.PlainDate) => `${formatDate(date)} 00:00:00`;

/** The calendar periods the list's limits count hours in: week from Monday, month, year. */
function periodsOf(startLocal: string) {
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

function overlapHours(item: Span, period: Span, timeZone: string): number {
  const start = item.start > period.start ? item.start : period.start;
  const end = item.end < period.end ? item.end : period.end;
  return end > start ? hoursBetween(start, end, timeZone) : 0;
}

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

/** Hours of the unbroken stretch of work the callback would join (work touching or overlapping it). */
function consecutiveHours(callback: Span, work: Span[], timeZone: string): number {
  let block = { ...callback };
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

/** The widest period any of the list's limits looks at, so work is loaded once for all users. */
function workRange(callback: Span, list: ListLimitsRow): Span {
  const periods = periodsOf(callback.start);
  const reach = Math.max(list.max_consecutive_hours, 0);
  const callbackStart = parseLocalDateTime(callback.start)!;
  const callbackEnd = parseLocalDateTime(callback.end)!;
  const candidates: Span[] = [
    {
      start: `${formatDate(callbackStart.subtract({ hours: reach + 24 }))} 00:00:00`,
      end: `${formatDate(callbackEnd.add({ hours: reach + 48 }))} 00:00:00`,
    },
  ];
  if (list.weekly_limit > 0) candidates.push(periods.week);
  if (list.monthly_limit > 0) candidates.push(periods.month);
  if (list.yearly_limit > 0) candidates.push(periods.year);
  return {
    start: candidates.map((s) => s.start).sort()[0]!,
    end: candidates
      .map((s) => s.end)
      .sort()
      .at(-1)!,
  };
}

/** Why a user may not take the callback, or null when eligible (DOMAIN.md, Callbacks). */
function ineligibility(
  callback: Span,
  list: ListLimitsRow,
  work: Span[],
  onTimeOff: boolean,
  timeZone: string,
): string | null {
  if (onTimeOff) return 'on approved time off';
  if (work.some((item) => overlaps(item, callback))) return 'already working';
  const callbackHours = hoursBetween(callback.start, callback.end, timeZone);
  const counted = work.filter((item) => item.counted !== false);
  if (list.max_consecutive_hours > 0) {
    const hours = consecutiveHours(callback, counted, timeZone);
    if (hours > list.max_consecutive_hours)
      return `over the max consecutive hours (${hours} > ${list.max_consecutive_hours})`;
  }
  const periods = periodsOf(callback.start);
  const limits = [
    ['weekly', list.weekly_limit, periods.week],
    ['monthly', list.monthly_limit, periods.month],
    ['yearly', list.yearly_limit, periods.year],
  ] as const;
  for (const [name, limit, period] of limits) {
    if (limit <= 0) continue;
    const worked = counted.reduce((sum, item) => sum + overlapHours(item, period, timeZone), 0);
    const total = Math.round((worked + overlapHours(callback, period, timeZone)) * 100) / 100;
    if (total > limit) return `over the ${name} limit (${total} > ${limit})`;
  }
  return callbackHours > 0 ? null : 'empty callback';
}

function byHireThenName(a: ListMember, b: ListMember): number {
  const hireA = a.date_of_hire ?? '9999-12-31';
  const hireB = b.date_of_hire ?? '9999-12-31';
  if (hireA !== hireB) return hireA < hireB ? -1 : 1;
  return a.last_name.localeCompare(b.last_name) || a.first_name.localeCompare(b.first_name) || a.id - b.id;
}

/**
 * Contact order of the list's members:
 * - rotating (default): never contacted first in list order, then by oldest last contact on this list;
 * - hours: fewest callback hours accepted from this list in the past year first, ties by date of hire, then last name;
 * - seniority: earliest date of hire first, then last name.
 */
async function orderMembers(
  db: Db,
  orgId: number,
  listId: number,
  members: ListMember[],
  ordering: CallbackOrdering,
  callback: Span,
  timeZone: string,
) {
  if (ordering === 'seniority') return [...members].sort(byHireThenName);
  if (ordering === 'hours') {
    const day = parseLocalDateTime(callback.start)!.toPlainDate();
    const spans = await acceptedCallbackSpans(db, orgId, {
      userIds: members.map((m) => m.id),
      start: startOfDay(day.subtract({ years: 1 })),
      end: callback.start,
      listId,
    });
    const hours = new Map<number, number>();
    for (const span of spans) {
      hours.set(
        span.user_id,
        (hours.get(span.user_id) ?? 0) +
          hoursBetween(span.start_time ?? span.start, span.end_time ?? span.end, timeZone),
      );
    }
    return [...members].sort((a, b) => (hours.get(a.id) ?? 0) - (hours.get(b.id) ?? 0) || byHireThenName(a, b));
  }
  const contacted = await lastContacts(db, orgId, listId);
  return [...members].sort((a, b) => {
    const lastA = contacted.get(a.id) ?? '';
    const lastB = contacted.get(b.id) ?? '';
    if (lastA !== lastB) return lastA < lastB ? -1 : 1;
    return a.list_position - b.list_position || a.id - b.id;
  });
}

/** Qualifiers a candidate must hold (those the vacancy is short of), on the vacancy's date. */
export interface RequiredQualifiers {
  date: string;
  qualifiers: Array<{ id: number; shortcode: string }>;
}

/**
 * Why each user may not take the callback span (null when eligible), from the scheduling engine's
 * commitments (work as worked after time off, approved time off), the list's hour limits, the
 * qualifiers the vacancy needs, and the engine's callback blocks (a "not available" period, a time
 * off type's exclusion window). Loads everyone's work at once.
 */
export async function ineligibilityOf(
  db: Db,
  orgId: number,
  list: ListLimitsRow,
  callback: Span,
  userIds: number[],
  timeZone: string,
  required?: RequiredQualifiers,
): Promise<Map<number, string | null>> {
  const range = workRange(callback, list);
  const [facts, unplacedCallbacks, excludedTypes, qualifications, blocks] = await Promise.all([
    scheduleFacts(db, orgId, { start: range.start, end: range.end, userIds, timezone: timeZone }),
    acceptedCallbackSpans(db, orgId, { userIds, start: range.start, end: range.end, unplacedOnly: true }),
    workTypesExcludedFromCallbacks(db, orgId),
    required?.qualifiers.length ? loadQualifications(db, orgId, userIds) : undefined,
    callbackBlocks(db, orgId, userIds, callback),
  ]);
  const assignments = await findAssignmentsByIds(
    db,
    orgId,
    facts.worked.map((item) => item.assignment_id),
  );
  const countsForLimits = (item: WorkItem) =>
    !excludedTypes.has(item.work_type_id) && assignments.get(item.assignment_id)?.is_work_shift !== 0;
  const workByUser = new Map<number, Span[]>();
  const addWork = (userId: number, span: Span) => workByUser.set(userId, [...(workByUser.get(userId) ?? []), span]);
  for (const item of facts.worked)
    addWork(item.user_id, { start: item.start, end: item.end, counted: countsForLimits(item) });
  for (const span of unplacedCallbacks)
    addWork(span.user_id, { start: span.start_time ?? span.start, end: span.end_time ?? span.end });
  const offUsers = new Set(
    facts.timeOff
      .map((c) => c.timeOff)
      .filter((t) => !t.time_off_type.force_include && overlaps(t, callback))
      .map((t) => t.user_id),
  );
  const lacking = (userId: number) =>
    !required || !qualifications
      ? []
      : required.qualifiers.filter((q) => !holds(qualifications, userId, q.id, required.date)).map((q) => q.shortcode);
  return new Map(
    userIds.map((id) => {
      const missing = lacking(id);
      if (missing.length > 0) return [id, `lacks ${missing.join(', ')}, which the vacancy needs`];
      const reason = ineligibility(callback, list, workByUser.get(id) ?? [], offUsers.has(id), timeZone);
      return [id, reason ?? blocks.get(id) ?? null];
    }),
  );
}

/** The list's members who may be offered the callback, in contact order, and those skipped with the reason. */
export async function selectCandidates(
  db: Db,
  orgId: number,
  list: ListLimitsRow,
  callback: Span & { ordering: CallbackOrdering },
  timeZone: string,
  required?: RequiredQualifiers,
  /** the people to choose from when not the list's members */
  people?: ListMember[],
): Promise<CandidateSelection> {
  const members = people ?? (await listMembers(db, orgId, list.id));
  if (members.length === 0) return { userIds: [], skipped: [] };
  const [ordered, reasons] = await Promise.all([
    orderMembers(db, orgId, list.id, members, callback.ordering, callback, timeZone),
    ineligibilityOf(
      db,
      orgId,
      list,
      callback,
      members.map((m) => m.id),
      timeZone,
      required,
    ),
  ]);
  const selection: CandidateSelection = { userIds: [], skipped: [] };
  for (const member of ordered) {
    const reason = reasons.get(member.id);
    if (reason) selection.skipped.push({ user_id: member.id, reason });
    else selection.userIds.push(member.id);
  }
  return selection;
}
