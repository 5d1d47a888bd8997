import type { FastifyRequest } from 'fastify';
import type { Db } from '../../core/db/transaction.js';
import { href } from '../../core/pagination.js';
import {
  assignmentDay,
  type ApprovedTimeOff,
  type DayFacts,
  type KellyDay,
  type PeriodDays,
  type WorkedPiece,
} from '../../scheduling/index.js';
import { tagsOfShifts, workTypesByIds, type LabelOfShift, type QualifierOfShift } from '../shifts/repository.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { WorkTypeRow } from '../work-types/table.js';
import type {
  ScheduleAssignment,
  ScheduleKellyDay,
  ScheduleMisc,
  ScheduleResponse,
  ScheduleShift,
  ScheduleTimeOff,
  ScheduleUserRef,
} from './schemas.js';

/*
 * GET /schedule's days as JSON, rendered from the engine's PeriodDays (src/scheduling/period-days.ts)
 * with the response's own serializers. Rendering only: staffing and who works when are the engine's.
 */

type Request = FastifyRequest;

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

/** What the shifts name besides users: work types with their subtypes, each shift's labels and qualifiers. */
export interface Lookups {
  workTypes: Map<number, WorkTypeRow>;
  subtypesByType: Map<number, Array<{ id: number; label: string }>>;
  labelsByShift: Map<number, LabelOfShift[]>;
  qualifiersByShift: Map<number, QualifierOfShift[]>;
}

/** One day of a period as JSON arrays, encoded. */
export interface ComputedDay {
  /** each assignment's entry of the day, by its place in the period's assignments (undefined: not on the day) */
  assignments: Array<Buffer | undefined>;
  timeOff: Buffer;
  /** absent on a day without Kelly days */
  kellyDays: Buffer | undefined;
}

/** What the engine cache keeps of a period: the engine's days, the lookups, and the days' JSON. */
export interface ComputedPeriod {
  facts: PeriodDays;
  lookups: Lookups;
  days: ComputedDay[];
}

const EMPTY: Lookups = {
  workTypes: new Map(),
  subtypesByType: new Map(),
  labelsByShift: new Map(),
  qualifiersByShift: new Map(),
};

/** A copy of `map` without the keys of `without`, then with `entries` set over it. */
function merged<K, V>(map: Map<K, V>, entries: Iterable<readonly [K, V]>, without: Iterable<K> = []): Map<K, V> {
  const copy = new Map(map);
  for (const key of without) copy.delete(key);
  for (const [key, value] of entries) copy.set(key, value);
  return copy;
}

/** The lookups of the pieces, over `previous` (only what it lacks is read; without it, always two statements). */
export async function lookupsOf(db: Db, orgId: number, pieces: WorkedPiece[], previous?: Lookups): Promise<Lookups> {
  const shiftIds = pieces.flatMap((p) => (p.shift_id === null ? [] : [p.shift_id]));
  const typeIds = pieces.map((p) => p.work_type_id).filter((id) => !previous?.workTypes.has(id));
  const [types, tags] = await Promise.all([
    previous && !typeIds.length ? undefined : workTypesByIds(db, orgId, typeIds),
    previous && !shiftIds.length ? undefined : tagsOfShifts(db, orgId, shiftIds),
  ]);
  const base = previous ?? EMPTY;
  const subtypes = new Map<number, Array<{ id: number; label: string }>>();
  for (const s of types?.subtypes ?? []) subtypes.set(s.work_type_id, [...(subtypes.get(s.work_type_id) ?? []), s]);
  return {
    workTypes: merged(base.workTypes, types?.types ?? []),
    subtypesByType: merged(base.subtypesByType, subtypes),
    labelsByShift: merged(base.labelsByShift, tags?.labels ?? [], shiftIds),
    qualifiersByShift: merged(base.qualifiersByShift, tags?.qualifiers ?? [], shiftIds),
  };
}

/** `{id, href, name}` of a user: of the period's people, else of `others`. */
export function userRefOf(request: Request, facts: PeriodDays, id: number, others?: Map<number, UserRow>) {
  const user = facts.people.get(id)?.user ?? others?.get(id);
  return { id, href: href(request, `/users/${id}`), name: user ? fullName(user) : '' } satisfies ScheduleUserRef;
}

function shiftItem(request: Request, item: WorkedPiece, facts: PeriodDays, lookups: Lookups): ScheduleShift {
  const workType = lookups.workTypes.get(item.work_type_id);
  const tagged = <T>(map: Map<number, T[]>) => (item.shift_id === null ? [] : (map.get(item.shift_id) ?? []));
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
    user: userRefOf(request, facts, item.user_id),
    scheduled_by: item.scheduled_by === null ? null : userRefOf(request, facts, item.scheduled_by),
    work_type: {
      id: item.work_type_id,
      href: href(request, `/work_types/${item.work_type_id}`),
      name: workType?.label ?? '',
      work_code: workType?.work_code ?? null,
      color: workType?.primary_color ?? '',
      text_color: workType?.secondary_color ?? '',
      subtypes: (lookups.subtypesByType.get(item.work_type_id) ?? []).map((s) => ({ id: s.id, label: s.label })),
    },
    labels: tagged(lookups.labelsByShift).map(({ id, label, color, text_color }) => ({
      id,
      href: href(request, `/labels/${id}`),
      label,
      color,
      text_color,
    })),
    qualifiers: tagged(lookups.qualifiersByShift).map(({ id, shortcode, name, color, text_color }) => ({
      id,
      href: href(request, `/qualifiers/${id}`),
      shortcode,
      name,
      color,
      text_color,
    })),
    groups: facts.people.get(item.user_id)?.groups ?? [],
  };
}

function timeOffItem(request: Request, timeOff: ApprovedTimeOff, facts: PeriodDays): ScheduleTimeOff {
  const { id, name, work_code, color, text_color } = timeOff.time_off_type;
  return {
    id: timeOff.id,
    href: href(request, `/time_offs/${timeOff.id}`),
    start: timeOff.start,
    end: timeOff.written_end,
    user: userRefOf(request, facts, timeOff.user_id),
    admin: timeOff.admin_id === null ? null : userRefOf(request, facts, timeOff.admin_id),
    time_off_type: {
      id,
      href: href(request, `/time_off_types/${id}`),
      name,
      work_code,
      color,
      text_color,
      subtypes: [],
    },
  };
}

function kellyDayItem(request: Request, { user_id, date: _date, ...day }: KellyDay, facts: PeriodDays) {
  return { user: userRefOf(request, facts, user_id), ...day } satisfies ScheduleKellyDay;
}

/** An assignment's entry of a day as JSON (the assignment by its place in the period's), if it is on the day. */
function renderAssignment(
  request: Request,
  json: ScheduleJson,
  date: string,
  at: number,
  period: Omit<ComputedPeriod, 'days'>,
) {
  const assignment = period.facts.assignments[at]!;
  const day = assignmentDay(period.facts, assignment, date);
  if (!day) return undefined;
  const { short_from, short_until, ...staffing } = day.staffing;
  const item: ScheduleAssignment = {
    id: assignment.id,
    href: href(request, `/assignments/${assignment.id}`),
    date,
    start: day.occurrence?.start ?? day.pieces[0]!.scheduled_start,
    end: day.occurrence?.end ?? day.pieces[0]!.scheduled_end,
    name: assignment.name,
    qualifiers_needed: day.needs,
    minimum_staffing: assignment.positions_to_fill,
    is_finalized: day.finalized,
    notes: assignment.notes,
    shifts: day.pieces.map((piece) => shiftItem(request, piece, period.facts, period.lookups)),
    staffing: {
      ...staffing,
      qualifier_shortfalls: staffing.qualifier_shortfalls.map((q) => ({
        ...q,
        shortcode: day.needs.find((n) => n.id === q.id)?.shortcode ?? null,
      })),
      short_from,
      short_until,
    },
  };
  return Buffer.from(json.assignment(item));
}

/** The JSON of a date's time off and Kelly days. */
function renderLists(request: Request, json: ScheduleJson, facts: PeriodDays, date: string) {
  const kelly = facts.kellyDays.filter((k) => k.date === date);
  const timeOff = facts.timeOff.filter((t) => t.dates.includes(date));
  return {
    timeOff: Buffer.from(json.timeOff(timeOff.map((t) => timeOffItem(request, t.timeOff, facts)))),
    kellyDays: kelly.length
      ? Buffer.from(json.kellyDays(kelly.map((k) => kellyDayItem(request, k, facts))))
      : undefined,
  };
}

/**
 * The days' JSON: each date's assignments (shifts, staffing), time off and Kelly days. With
 * `previous` and what a patch changed, only the assignment days and lists the changed users were
 * or are on are written again.
 */
export function renderDays(
  request: Request,
  dates: string[],
  json: ScheduleJson,
  period: Omit<ComputedPeriod, 'days'>,
  previous?: { days: ComputedDay[]; removed: DayFacts; found: DayFacts },
): ComputedDay[] {
  const every = period.facts.assignments.map((_, at) => at);
  const places = new Map(period.facts.assignments.map((a, at) => [a.id, at]));
  const changed = previous && [previous.removed, previous.found];
  const listed = new Set(
    changed?.flatMap((c) => [...c.timeOff.flatMap((t) => t.dates), ...c.kellyDays.map((k) => k.date)]),
  );
  return dates.map((date, i) => {
    const before = previous?.days[i];
    const dirty = changed?.flatMap((c) => c.pieces.filter((p) => p.date === date && places.has(p.assignment_id)));
    if (before && !dirty!.length && !listed.has(date)) return before;
    const assignments = before ? [...before.assignments] : [];
    for (const at of before ? new Set(dirty!.map((p) => places.get(p.assignment_id)!)) : every)
      assignments[at] = renderAssignment(request, json, date, at, period);
    const lists = !before || listed.has(date) ? renderLists(request, json, period.facts, date) : before;
    return { assignments, timeOff: lists.timeOff, kellyDays: lists.kellyDays };
  });
}
