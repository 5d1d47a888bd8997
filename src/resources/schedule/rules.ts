import type { FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../../core/db/index.js';
import type { Db } from '../../core/db/transaction.js';
import { href } from '../../core/pagination.js';
import { addDays, datesFromTo, formatLocalDateTime, type Temporal } from '../../core/time.js';
import {
  countsAsWork,
  adjacentPeriods,
  assignmentsForSchedule,
  LOOKBACK_DAYS,
  periodOf,
  scheduleFacts,
  staffingOf,
  type ApprovedTimeOff,
  type KellyDay,
  type Period,
  type Qualifications,
  type ScheduleFacts,
  type TimeOffCover,
  type WorkedPiece,
  workedOrder,
} from '../../scheduling/index.js';
import type { QualifierNeeded } from '../assignments/repository.js';
import { assignmentOccurrences, type AssignmentOccurrence } from '../assignments/recurrence.js';
import type { AssignmentRow } from '../assignments/table.js';
import { tagsOfShifts, workTypesByIds, type LabelOfShift, type QualifierOfShift } from '../shifts/repository.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { WorkSubtypeRow, WorkTypeRow } from '../work-types/table.js';
import type { ComputedDay, ComputedPeriod, EngineCache } from './engine-cache.js';
import { peopleByIds, scheduleDayItems, type Person } from './repository.js';
import type {
  ScheduleAssignment,
  ScheduleKellyDay,
  ScheduleMisc,
  ScheduleResponse,
  ScheduleShift,
  ScheduleTimeOff,
  ScheduleUserRef,
} from './schemas.js';

type Request = FastifyRequest;

/** A time off belongs to the dates from its start date to the day before its end date (at least its start date). */
export function datesCovered(start: string, end: string): string[] {
  const first = start.slice(0, 10);
  const endDate = end.slice(0, 10);
  const last = endDate > first ? addDays(endDate, -1) : first;
  return datesFromTo(first, last);
}

/** The spec's day.callbacks / day.trades items have no `date`: the day they sit under is theirs. */
function withoutDate<T extends { date: string }>({ date: _date, ...item }: T): Omit<T, 'date'> {
  return item;
}

/** `start=2015-03-08%2008:00:00`: spaces escaped, colons kept, as the samples write the links. */
function scheduleLink(request: Request, start: Temporal.PlainDateTime, end: Temporal.PlainDateTime): { href: string } {
  const encode = (dt: Temporal.PlainDateTime) => encodeURIComponent(formatLocalDateTime(dt)).replace(/%3A/g, ':');
  return { href: `${href(request, '/schedule')}?start=${encode(start)}&end=${encode(end)}` };
}

/** Rows grouped by a key, in their order. */
function groupBy<T, K>(items: T[], keysOf: (item: T) => K[]): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    for (const key of keysOf(item)) {
      const group = groups.get(key);
      if (group) group.push(item);
      else groups.set(key, [item]);
    }
  }
  return groups;
}

/** A copy of `map` without the keys of `without`, then with `entries` set over it. */
function withEntries<K, V>(map: Map<K, V>, entries: Iterable<readonly [K, V]>, without: Iterable<K> = []): Map<K, V> {
  const copy = new Map(map);
  for (const key of without) copy.delete(key);
  for (const [key, value] of entries) copy.set(key, value);
  return copy;
}

/** One field of each person loaded, by user id. */
const fieldOf = <F extends keyof Person>(people: Map<number, Person>, field: F) =>
  [...people].map(([id, person]) => [id, person[field]] as const);

/** An assignment's day: the key of its occurrence and of the pieces worked on it. */
const dayKey = (assignmentId: number, date: string) => `${assignmentId}|${date}`;

interface Lookups {
  users: Map<number, UserRow>;
  workTypes: Map<number, WorkTypeRow>;
  subtypesByType: Map<number, Pick<WorkSubtypeRow, 'id' | 'label'>[]>;
  labelsByShift: Map<number, LabelOfShift[]>;
  qualifiersByShift: Map<number, QualifierOfShift[]>;
  groupsByUser: Map<number, { id: number; label: string }[]>;
}

function userRefOf(request: Request, users: Map<number, UserRow>, id: number): ScheduleUserRef {
  const user = users.get(id);
  return { id, href: href(request, `/users/${id}`), name: user ? fullName(user) : '' };
}

function shiftItem(request: Request, item: WorkedPiece, lookups: Lookups): ScheduleShift {
  const workType = lookups.workTypes.get(item.work_type_id);
  const shiftLabels = item.shift_id === null ? [] : (lookups.labelsByShift.get(item.shift_id) ?? []);
  const shiftQualifiers = item.shift_id === null ? [] : (lookups.qualifiersByShift.get(item.shift_id) ?? []);
  return {
    id: item.id,
    href: href(request, item.recurring ? `/recurring_shifts/${item.id}` : `/shifts/${item.id}`),
    start: item.start,
    end: item.end,
    length: item.length,
    break_start: item.break_start,
    break_end: item.break_end,
    break_length: item.break_length,
    hold_over: item.hold_over,
    recurring: item.recurring,
    user: userRefOf(request, lookups.users, item.user_id),
    scheduled_by: item.scheduled_by === null ? null : userRefOf(request, lookups.users, item.scheduled_by),
    work_type: {
      id: item.work_type_id,
      href: href(request, `/work_types/${item.work_type_id}`),
      name: workType?.label ?? '',
      work_code: workType?.work_code ?? null,
      color: workType?.primary_color ?? '',
      text_color: workType?.secondary_color ?? '',
      subtypes: (lookups.subtypesByType.get(item.work_type_id) ?? []).map((s) => ({ id: s.id, label: s.label })),
    },
    labels: shiftLabels.map((l) => ({
      id: l.id,
      href: href(request, `/labels/${l.id}`),
      label: l.label,
      color: l.color,
      text_color: l.text_color,
    })),
    qualifiers: shiftQualifiers.map((q) => ({
      id: q.id,
      href: href(request, `/qualifiers/${q.id}`),
      shortcode: q.shortcode,
      name: q.name,
      color: q.color,
      text_color: q.text_color,
    })),
    groups: lookups.groupsByUser.get(item.user_id) ?? [],
  };
}

function timeOffItem(request: Request, timeOff: ApprovedTimeOff, users: Map<number, UserRow>): ScheduleTimeOff {
  const type = timeOff.time_off_type;
  return {
    id: timeOff.id,
    href: href(request, `/time_offs/${timeOff.id}`),
    start: timeOff.start,
    end: timeOff.written_end,
    user: userRefOf(request, users, timeOff.user_id),
    admin: timeOff.admin_id === null ? null : userRefOf(request, users, timeOff.admin_id),
    time_off_type: {
      id: type.id,
      href: href(request, `/time_off_types/${type.id}`),
      name: type.name,
      work_code: type.work_code,
      color: type.color,
      text_color: type.text_color,
      subtypes: [],
    },
  };
}

function kellyDayItem(request: Request, day: KellyDay, users: Map<number, UserRow>): ScheduleKellyDay {
  return {
    user: userRefOf(request, users, day.user_id),
    recurring_shift_id: day.recurring_shift_id,
    rotation: day.rotation,
    code: day.code,
    name: day.name,
    assignment_id: day.assignment_id,
    start: day.start,
    end: day.end,
  };
}

interface DayContext {
  assignments: AssignmentRow[];
  occurrences: Map<string, AssignmentOccurrence>;
  piecesByKey: Map<string, WorkedPiece[]>;
  finalized: Set<string>;
  qualifiersNeeded: Map<number, QualifierNeeded[]>;
  qualifications: Qualifications;
  lookups: Lookups;
}

/**
 * An assignment's entry of a day, with its staffing; undefined when it has neither an occurrence nor a shift that
 * day.
 */
function assignmentOfDay(
  request: Request,
  date: string,
  assignment: AssignmentRow,
  context: DayContext,
): ScheduleAssignment | undefined {
  const key = dayKey(assignment.id, date);
  const occurrence = context.occurrences.get(key);
  const pieces = context.piecesByKey.get(key);
  if (!occurrence && !pieces) return undefined;
  const counts = occurrence !== undefined && countsAsWork(assignment);
  const needs = context.qualifiersNeeded.get(assignment.id) ?? [];
  const { short_from, short_until, ...staffing } = staffingOf({
    occurrence: occurrence ?? null,
    date,
    needed: counts ? assignment.positions_to_fill : 0,
    qualifiersNeeded: counts
      ? needs.map((q) => ({ id: q.id, shortcode: q.shortcode ?? '', minimum_staffing: q.minimum_staffing }))
      : [],
    pieces: pieces ?? [],
    qualifications: context.qualifications,
  });
  return {
    id: assignment.id,
    href: href(request, `/assignments/${assignment.id}`),
    date,
    start: occurrence?.start ?? pieces![0]!.scheduled_start,
    end: occurrence?.end ?? pieces![0]!.scheduled_end,
    name: assignment.name,
    qualifiers_needed: needs,
    minimum_staffing: assignment.positions_to_fill,
    is_finalized: context.finalized.has(key),
    notes: assignment.notes,
    shifts: (pieces ?? []).map((piece) => shiftItem(request, piece, context.lookups)),
    staffing: {
      ...staffing,
      qualifier_shortfalls: staffing.qualifier_shortfalls.map((q) => ({
        ...q,
        shortcode: needs.find((n) => n.id === q.id)?.shortcode ?? null,
      })),
      short_from,
      short_until,
    },
  };
}

/** Turns values into JSON with the response's own serializers (fast-json-stringify, by schema). */
export interface ScheduleJson {
  assignment(item: ScheduleAssignment): string;
  timeOff(items: ScheduleTimeOff[]): string;
  kellyDays(items: ScheduleKellyDay[]): string;
  callbacks(items: unknown[]): string;
  trades(items: unknown[]): string;
  misc(items: ScheduleMisc[]): string;
  strings(items: string[]): string;
  /** the response with `days: []` */
  envelope(response: ScheduleResponse): string;
}

/** Approved time off meeting the period, with the period's dates it is listed on. */
interface ListedTimeOff extends TimeOffCover {
  dates: string[];
}

/**
 * What the engine computed for a period, kept beside its JSON so that a change of a few users'
 * shifts or time off is patched in (patchPeriod) rather than computed anew for everyone.
 */
export interface PeriodState {
  context: DayContext;
  piecesByUser: Map<number, WorkedPiece[]>;
  timeOff: ListedTimeOff[];
  kellyDays: KellyDay[];
}

/** The engine's facts that belong to the period's days. */
function inPeriod(facts: ScheduleFacts, period: Period, days: Set<string>) {
  return {
    // work dated in the period, as worked (time off cuts it), for every item that meets the period
    pieces: facts.worked.filter(
      (p) => days.has(p.date) && p.scheduled_start < period.end && p.scheduled_end > period.start,
    ),
    timeOff: facts.timeOff.map((cover) => ({
      ...cover,
      dates: [...new Set(cover.segments.map((s) => s.date))].filter((d) => days.has(d)),
    })),
    kellyDays: facts.kellyDays.filter((k) => days.has(k.date)),
  };
}

/** Every user the pieces, time off and Kelly days name. */
const namedUsers = (found: ReturnType<typeof inPeriod>) => [
  ...found.pieces.flatMap((i) => [i.user_id, i.scheduled_by ?? 0]),
  ...found.timeOff.flatMap((t) => [t.timeOff.user_id, t.timeOff.admin_id ?? 0]),
  ...found.kellyDays.map((k) => k.user_id),
];

/** An assignment's entry of a day as JSON (the assignment by its place in the period's), if it is on the day. */
function renderAssignment(request: Request, json: ScheduleJson, date: string, at: number, context: DayContext) {
  const item = assignmentOfDay(request, date, context.assignments[at]!, context);
  return item && Buffer.from(json.assignment(item));
}

/** The JSON of each date's time off and Kelly days. */
function renderLists(request: Request, json: ScheduleJson, state: PeriodState) {
  const { users } = state.context.lookups;
  const timeOffByDate = groupBy(state.timeOff, (t) => t.dates);
  const kellyByDate = groupBy(state.kellyDays, (k) => [k.date]);
  return (date: string) => {
    const kelly = kellyByDate.get(date);
    return {
      timeOff: Buffer.from(
        json.timeOff((timeOffByDate.get(date) ?? []).map((t) => timeOffItem(request, t.timeOff, users))),
      ),
      kellyDays: kelly ? Buffer.from(json.kellyDays(kelly.map((k) => kellyDayItem(request, k, users)))) : undefined,
    };
  };
}

/** The days' JSON: each date's assignments (shifts, staffing), time off and Kelly days. */
function renderDays(request: Request, dates: string[], json: ScheduleJson, state: PeriodState): ComputedDay[] {
  const lists = renderLists(request, json, state);
  return dates.map((date) => ({
    assignments: state.context.assignments.map((_, at) => renderAssignment(request, json, date, at, state.context)),
    ...lists(date),
  }));
}

/**
 * What the engine computes for the period: each day's assignments (shifts, staffing), time off and
 * Kelly days as JSON, and the users named. The users of `extraUserIds` (misc hours) are loaded in
 * the same statement as the engine's.
 */
async function computePeriod(
  db: Db,
  request: Request,
  period: Period,
  json: ScheduleJson,
  extraUserIds: () => Promise<number[]>,
): Promise<ComputedPeriod> {
  const { orgId, timezone } = request.auth;
  const firstDay = period.days[0]!;
  const lastDay = period.days[period.days.length - 1]!;
  // Assignments from the lookback on, so that the engine can reuse them for occurrences that began before the period.
  const assignmentsFrom = addDays(firstDay, -LOOKBACK_DAYS);
  const assignmentsTo = period.end.slice(0, 10);
  const { assignments, finalized, qualifiersNeeded } = await assignmentsForSchedule(
    db,
    orgId,
    assignmentsFrom,
    assignmentsTo,
  );
  const [facts, extraUsers] = await Promise.all([
    scheduleFacts(db, orgId, { start: period.start, end: period.end, timezone, assignments }),
    extraUserIds(),
  ]);
  const found = inPeriod(facts, period, new Set(period.days));
  const { pieces } = found;
  const shiftIds = pieces.flatMap((item) => (item.shift_id === null ? [] : [item.shift_id]));
  const [people, workTypes, tags] = await Promise.all([
    peopleByIds(db, orgId, [...namedUsers(found), ...extraUsers]),
    workTypesByIds(
      db,
      orgId,
      pieces.map((i) => i.work_type_id),
    ),
    tagsOfShifts(db, orgId, shiftIds),
  ]);
  const users = new Map(fieldOf(people, 'user'));
  const lookups: Lookups = {
    users,
    workTypes: workTypes.types,
    subtypesByType: groupBy(workTypes.subtypes, (s) => [s.work_type_id]),
    labelsByShift: tags.labels,
    qualifiersByShift: tags.qualifiers,
    groupsByUser: new Map(fieldOf(people, 'groups')),
  };
  const occurrenceList = assignments.flatMap((assignment) =>
    assignmentOccurrences(assignment, firstDay, lastDay, timezone),
  );
  const state: PeriodState = {
    context: {
      assignments,
      occurrences: new Map(
        occurrenceList
          .filter((o) => o.start < period.end && o.end > period.start)
          .map((o) => [dayKey(o.assignment_id, o.date), o]),
      ),
      piecesByKey: groupBy(pieces, (item) => [dayKey(item.assignment_id, item.date)]),
      finalized,
      qualifiersNeeded,
      qualifications: new Map(fieldOf(people, 'qualification')),
      lookups,
    },
    piecesByUser: groupBy(pieces, (item) => [item.user_id]),
    timeOff: found.timeOff,
    kellyDays: found.kellyDays,
  };
  return { users, state, days: renderDays(request, period.days, json, state) };
}

const timeOffOrder = (a: ListedTimeOff, b: ListedTimeOff) =>
  a.timeOff.start < b.timeOff.start ? -1 : a.timeOff.start > b.timeOff.start ? 1 : a.timeOff.id - b.timeOff.id;
const kellyOrder = (a: KellyDay, b: KellyDay) =>
  a.recurring_shift_id - b.recurring_shift_id || (a.start < b.start ? -1 : a.start > b.start ? 1 : 0);

/**
 * The period computed before, with the shifts and time off of `userIds` read again: only their
 * work, time off and Kelly days are asked of the engine, and only the days they were or are on
 * are written again. What it yields is what computePeriod would (engine-cache.test.ts compares them).
 */
async function patchPeriod(
  db: Db,
  request: Request,
  period: Period,
  json: ScheduleJson,
  previous: ComputedPeriod,
  userIds: number[],
): Promise<ComputedPeriod> {
  const { orgId, timezone } = request.auth;
  const before = previous.state;
  const changed = new Set(userIds);
  const facts = await scheduleFacts(db, orgId, {
    start: period.start,
    end: period.end,
    timezone,
    assignments: before.context.assignments,
    userIds,
  });
  const found = inPeriod(facts, period, new Set(period.days));
  const removed = {
    pieces: userIds.flatMap((id) => before.piecesByUser.get(id) ?? []),
    timeOff: before.timeOff.filter((t) => changed.has(t.timeOff.user_id)),
    kellyDays: before.kellyDays.filter((k) => changed.has(k.user_id)),
  };
  // what the new pieces and time off name that the period has not loaded yet
  const lookups = before.context.lookups;
  const newUsers = namedUsers(found).filter((id) => id > 0 && !lookups.users.has(id));
  const newTypes = found.pieces.map((p) => p.work_type_id).filter((id) => !lookups.workTypes.has(id));
  const shiftIds = found.pieces.flatMap((p) => (p.shift_id === null ? [] : [p.shift_id]));
  const [people, workTypes, tags] = await Promise.all([
    newUsers.length ? peopleByIds(db, orgId, newUsers) : new Map<number, never>(),
    newTypes.length ? workTypesByIds(db, orgId, newTypes) : undefined,
    shiftIds.length ? tagsOfShifts(db, orgId, shiftIds) : undefined,
  ]);
  const users = withEntries(lookups.users, fieldOf(people, 'user'));
  // the assignment days the users were or are on, each again in the engine's order
  const piecesByKey = new Map(before.context.piecesByKey);
  const addedByKey = groupBy(found.pieces, (p) => [dayKey(p.assignment_id, p.date)]);
  for (const key of new Set([...removed.pieces, ...found.pieces].map((p) => dayKey(p.assignment_id, p.date)))) {
    const kept = (piecesByKey.get(key) ?? []).filter((p) => !changed.has(p.user_id));
    const group = [...kept, ...(addedByKey.get(key) ?? [])].sort(workedOrder);
    if (group.length > 0) piecesByKey.set(key, group);
    else piecesByKey.delete(key);
  }
  const state: PeriodState = {
    context: {
      ...before.context,
      piecesByKey,
      qualifications: withEntries(before.context.qualifications, fieldOf(people, 'qualification')),
      lookups: {
        users,
        workTypes: withEntries(lookups.workTypes, workTypes?.types ?? []),
        subtypesByType: withEntries(
          lookups.subtypesByType,
          groupBy(workTypes?.subtypes ?? [], (t) => [t.work_type_id]),
        ),
        labelsByShift: withEntries(lookups.labelsByShift, tags?.labels ?? [], shiftIds),
        qualifiersByShift: withEntries(lookups.qualifiersByShift, tags?.qualifiers ?? [], shiftIds),
        groupsByUser: withEntries(lookups.groupsByUser, fieldOf(people, 'groups')),
      },
    },
    piecesByUser: withEntries(
      before.piecesByUser,
      groupBy(found.pieces, (p) => [p.user_id]),
      userIds,
    ),
    timeOff: [...before.timeOff.filter((t) => !changed.has(t.timeOff.user_id)), ...found.timeOff].sort(timeOffOrder),
    kellyDays: [...before.kellyDays.filter((k) => !changed.has(k.user_id)), ...found.kellyDays].sort(kellyOrder),
  };
  // the assignment days and the lists any of it was or is on, written again
  const places = new Map(state.context.assignments.map((a, at) => [a.id, at]));
  const dirtyAssignments = groupBy([...removed.pieces, ...found.pieces], (p) =>
    places.has(p.assignment_id) ? [p.date] : [],
  );
  const dirtyLists = new Set([
    ...[...removed.timeOff, ...found.timeOff].flatMap((t) => t.dates),
    ...[...removed.kellyDays, ...found.kellyDays].map((k) => k.date),
  ]);
  const lists = dirtyLists.size > 0 ? renderLists(request, json, state) : undefined;
  const days = period.days.map((date, i) => {
    const day = previous.days[i]!;
    const pieces = dirtyAssignments.get(date);
    if (!pieces && !dirtyLists.has(date)) return day;
    const assignments = [...day.assignments];
    for (const at of new Set(pieces?.map((p) => places.get(p.assignment_id)!)))
      assignments[at] = renderAssignment(request, json, date, at, state.context);
    return {
      assignments,
      ...(dirtyLists.has(date) ? lists!(date) : { timeOff: day.timeOff, kellyDays: day.kellyDays }),
    };
  });
  return { users, state, days };
}

const COMMA = Buffer.from(',');

/** The entries of a day's assignments, separated by commas. */
function joined(entries: Array<Buffer | undefined>): Buffer[] {
  const parts: Buffer[] = [];
  for (const entry of entries) if (entry) parts.push(...(parts.length > 0 ? [COMMA, entry] : [entry]));
  return parts;
}

/**
 * GET /schedule as JSON: every day of the period with its assignments (shifts and staffing), time
 * off, callbacks, trades, misc hours, notes, activities and Kelly days. What the engine computes
 * comes from `cache` while nothing it reads has changed (src/resources/schedule/engine-cache.ts);
 * callbacks, trades, misc hours and notes are read every time, in one statement. The number of statements does not
 * depend on the period.
 */
export async function buildScheduleJson(
  handle: DatabaseHandle,
  request: Request,
  query: { start: string; end: string },
  json: ScheduleJson,
  cache: EngineCache,
): Promise<Buffer> {
  const { orgId, timezone } = request.auth;
  const period = periodOf(query);
  const firstDay = period.days[0]!;
  const lastDay = period.days[period.days.length - 1]!;
  const key = `${orgId}|${request.baseUrl}|${timezone}|${period.start}|${period.end}`;
  const db = handle.db;
  // read while the stamp is taken (on PostgreSQL a round trip of its own): none of it is the engine's
  const others = scheduleDayItems(handle, request, { start: period.start, end: period.end, firstDay, lastDay });
  others.catch(() => undefined); // awaited below; a failure of the engine's reads comes first
  const stamp = await cache.stamp(orgId, request.auth.orgRevision);
  const kept = await cache.get(orgId, key, stamp);
  let computed = kept?.period;
  if (kept?.changedUsers) computed = await patchPeriod(db, request, period, json, kept.period, kept.changedUsers);
  if (!computed)
    computed = await computePeriod(db, request, period, json, async () => (await others).misc.map((m) => m.user_id));
  if (computed !== kept?.period) cache.set(key, stamp, computed);
  const { callbacks, trades, misc, notes } = await others;
  let users = computed.users;
  const unnamed = misc.map((m) => m.user_id).filter((id) => !users.has(id));
  if (unnamed.length > 0) {
    const people = await peopleByIds(db, orgId, unnamed);
    users = withEntries(users, fieldOf(people, 'user'));
  }
  const callbacksByDate = groupBy(callbacks.map(withoutDate), (c) => datesCovered(c.start, c.end));
  const tradesByDate = groupBy(trades.map(withoutDate), (t) => datesCovered(t.start, t.end));
  const miscByDate = groupBy(misc, (m) => [m.date]);
  const none = json.strings([]);
  // the days as pieces of one buffer: the engine's parts were encoded once, when they were computed
  const chunks: Buffer[] = [];
  period.days.forEach((date, i) => {
    const day = computed.days[i]!;
    const items = notes.get(date);
    const misc = (miscByDate.get(date) ?? []).map((m) => ({
      id: m.id,
      href: href(request, `/misc/${m.id}`),
      date: m.date,
      length: m.length,
      user: userRefOf(request, users, m.user_id),
      work_type: m.work_type,
    }));
    // the properties in ScheduleDay's order, as the response's serializer writes them
    chunks.push(
      Buffer.from(`${i === 0 ? '' : ','}{"date":${JSON.stringify(date)},"assignments":[`),
      ...joined(day.assignments),
      Buffer.from('],"time_off":'),
      day.timeOff,
      Buffer.from(
        `,"callbacks":${json.callbacks(callbacksByDate.get(date) ?? [])}` +
          `,"trades":${json.trades(tradesByDate.get(date) ?? [])}` +
          `,"misc":${json.misc(misc)},"notes":${items ? json.strings(items.notes) : none}` +
          `,"activities":${items ? json.strings(items.activities) : none}${day.kellyDays ? ',"kelly_days":' : ''}`,
      ),
      ...(day.kellyDays ? [day.kellyDays] : []),
      Buffer.from('}'),
    );
  });
  const links = adjacentPeriods(period);
  const envelope = json.envelope({
    start: period.start,
    end: period.end,
    days: [],
    prev: scheduleLink(request, ...links.prev),
    next: scheduleLink(request, ...links.next),
  });
  const at = envelope.indexOf('"days":[]') + '"days":['.length;
  return Buffer.concat([Buffer.from(envelope.slice(0, at)), ...chunks, Buffer.from(envelope.slice(at))]);
}
