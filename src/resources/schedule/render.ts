import type { FastifyRequest } from 'fastify';
import { PUBLIC_VIEWER, type MaskedJson, type TimeOffViewer } from '../../core/masked-types.js';
import { href } from '../../core/pagination.js';
import {
  assignmentDay,
  type Touched,
  type KeptPeriod,
  type Lookups,
  type PeriodDays,
  type WorkedPiece,
} from '../../scheduling/index.js';
import { scheduleKellyDay } from '../rotations/serialize.js';
import { scheduleTimeOffItem } from '../time-offs/serialize.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { ScheduleAssignment, ScheduleJson, ScheduleShift, ScheduleTimeOff, ScheduleUserRef } from './schemas.js';

/** Who sees every type: the JSON of an item kept for them. */
const EVERY_TYPE: TimeOffViewer = { seesEveryType: true, userId: null };

/*
 * GET /schedule's days as JSON, rendered from the engine's PeriodDays (src/scheduling/period-days.ts)
 * with the response's own serializers. Rendering only: staffing and who works when are the engine's.
 */

type Request = FastifyRequest;

/** One day of a period as JSON arrays, encoded. */
export interface ComputedDay {
  /** each assignment's entry of the day, by its place in the period's assignments (undefined: not on the day) */
  assignments: Array<Buffer | undefined>;
  timeOff: MaskedJson[];
  /** absent on a day without Kelly days */
  kellyDays: Buffer | undefined;
}

/** What the engine cache keeps of a period: the engine's days, the lookups, and the days' JSON. */
export type ComputedPeriod = KeptPeriod<ComputedDay>;

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
