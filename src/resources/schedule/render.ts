import type { FastifyRequest } from 'fastify';
import type { Db } from '../../core/db/transaction.js';
import { groupBy, withEntries } from '../../core/maps.js';
import { PUBLIC_VIEWER, seesTimeOffType, type TimeOffViewer } from '../../core/masked-types.js';
import { href } from '../../core/pagination.js';
import {
  assignmentDay,
  type Touched,
  type KeptPeriod,
  type PeriodDays,
  type WorkedPiece,
} from '../../scheduling/index.js';
import { scheduleKellyDay } from '../rotations/serialize.js';
import {
  tagsOfShifts,
  tagsOfUsersShifts,
  workTypesByIds,
  type LabelOfShift,
  type QualifierOfShift,
  type ShiftTags,
} from '../shifts/repository.js';
import { scheduleTimeOffItem } from '../time-offs/serialize.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { WorkTypeRow } from '../work-types/table.js';
import type { ScheduleAssignment, ScheduleJson, ScheduleShift, ScheduleTimeOff, ScheduleUserRef } from './schemas.js';

/** Who sees every type: the JSON of an item kept for them. */
const EVERY_TYPE: TimeOffViewer = { seesEveryType: true, userId: null };

/*
 * GET /schedule's days as JSON, rendered from the engine's PeriodDays (src/scheduling/period-days.ts)
 * with the response's own serializers. Rendering only: staffing and who works when are the engine's.
 */

type Request = FastifyRequest;

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
  timeOff: TimeOffJson[];
  /** absent on a day without Kelly days */
  kellyDays: Buffer | undefined;
}

/**
 * One time off item of a day as JSON: as those who see its type see it and, on a masked type, as
 * everyone else does (core/masked-types.ts); timeOffJson picks per viewer.
 */
export interface TimeOffJson {
  userId: number;
  json: string;
  publicJson: string | undefined;
}

/** A day's `time_off` array as the viewer may see it. */
export function timeOffJson(items: TimeOffJson[], viewer: TimeOffViewer): string {
  const shown = items.map((item) =>
    item.publicJson === undefined || seesTimeOffType(viewer, item.userId, { masked: true })
      ? item.json
      : item.publicJson,
  );
  return `[${shown.join(',')}]`;
}

/** What the engine cache keeps of a period: the engine's days, the lookups, and the days' JSON. */
export type ComputedPeriod = KeptPeriod<Lookups, ComputedDay>;

/** Labels and qualifiers of shifts read ahead, with the ids of every shift they cover. */
type EarlyTags = Promise<ShiftTags & { shiftIds: Set<number> }>;

/**
 * The lookups of the pieces, over `previous` (only what it lacks is read; without it, always two
 * statements). `early`: the tags read ahead for these pieces; read again only if it lacks a shift.
 */
export async function lookupsOf(
  db: Db,
  orgId: number,
  pieces: WorkedPiece[],
  previous?: Lookups,
  early?: EarlyTags,
): Promise<Lookups> {
  const shiftIds = pieces.flatMap((p) => (p.shift_id === null ? [] : [p.shift_id]));
  const typeIds = pieces.map((p) => p.work_type_id).filter((id) => !previous?.workTypes.has(id));
  const tagsOf = async () => {
    const read = await early;
    if (!read || !shiftIds.every((id) => read.shiftIds.has(id))) return tagsOfShifts(db, orgId, shiftIds);
    const wanted = <T>(map: Map<number, T>) => [...map].filter(([id]) => shiftIds.includes(id));
    return { labels: wanted(read.labels), qualifiers: wanted(read.qualifiers) };
  };
  const [types, tags] = await Promise.all([
    previous && !typeIds.length ? undefined : workTypesByIds(db, orgId, typeIds),
    previous && !shiftIds.length ? undefined : tagsOf(),
  ]);
  const subtypes = groupBy(types?.subtypes ?? [], (t) => [t.work_type_id]);
  return {
    workTypes: withEntries(previous?.workTypes ?? new Map(), types?.types ?? []),
    subtypesByType: withEntries(previous?.subtypesByType ?? new Map(), subtypes),
    labelsByShift: withEntries(previous?.labelsByShift ?? new Map(), tags?.labels ?? [], shiftIds),
    qualifiersByShift: withEntries(previous?.qualifiersByShift ?? new Map(), tags?.qualifiers ?? [], shiftIds),
  };
}

/**
 * The lookups of the users' pieces over `previous`, for a patch of their days: the tags of the
 * users' shifts in the span are read at once, beside the engine's reads of the users (one round
 * trip less on PostgreSQL), rather than once the pieces are known.
 */
export function lookupsOfUsers(
  db: Db,
  orgId: number,
  userIds: number[],
  span: { start: string; end: string },
  previous: Lookups,
): (pieces: WorkedPiece[]) => Promise<Lookups> {
  const early = tagsOfUsersShifts(db, orgId, userIds, span);
  early.catch(() => undefined); // awaited by the lookups; a failure of the engine's reads comes first
  return (pieces) => lookupsOf(db, orgId, pieces, previous, early);
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
  const ref = (id: number) => userRefOf(request, facts, id);
  const kelly = facts.kellyDays.filter((k) => k.date === date);
  const timeOff = facts.timeOff.filter((t) => t.dates.includes(date));
  // one item as the array's serializer writes it
  const itemJson = (item: ScheduleTimeOff) => json.timeOff([item]).slice(1, -1);
  return {
    timeOff: timeOff.map(({ timeOff: t, seats }) => {
      const taken = seats
        .filter((s) => s.date === date)
        .map(({ assignment_id, start, end }) => ({ assignment_id, start, end }));
      const withSeats = (item: ScheduleTimeOff) => itemJson(taken.length ? { ...item, seats: taken } : item);
      return {
        userId: t.user_id,
        json: withSeats(scheduleTimeOffItem(request, t, ref, EVERY_TYPE)),
        publicJson: t.time_off_type.masked ? withSeats(scheduleTimeOffItem(request, t, ref, PUBLIC_VIEWER)) : undefined,
      };
    }),
    kellyDays: kelly.length ? Buffer.from(json.kellyDays(kelly.map((k) => scheduleKellyDay(k, ref)))) : undefined,
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
  previous?: { days: ComputedDay[]; touched: Touched },
): ComputedDay[] {
  return dates.map((date, i) => {
    const before = previous?.days[i];
    const dirty = previous?.touched.assignments.get(date);
    const relist = !before || previous!.touched.lists.has(date);
    if (before && !dirty && !relist) return before;
    const assignments = before ? [...before.assignments] : [];
    for (const at of before ? (dirty ?? []) : period.facts.assignments.keys())
      assignments[at] = renderAssignment(request, json, date, at, period);
    const lists = relist ? renderLists(request, json, period.facts, date) : before!;
    return { assignments, timeOff: lists.timeOff, kellyDays: lists.kellyDays };
  });
}
