import { Type, type Static } from '@sinclair/typebox';
import { Hours, LocalDateTime, Nullable, LinkRef, Staffing } from '../../core/schemas.js';
import { QualifierNeededResponse } from '../assignments/schemas.js';
import { ScheduleCallback } from '../callbacks/schemas.js';
import { ScheduleTrade } from '../trades/schemas.js';
import { ScheduleLabel } from '../labels/schemas.js';
import { ScheduleMisc } from '../misc-hours/schemas.js';
import { ScheduleQualifier } from '../qualifiers/schemas.js';
import { ScheduleKellyDay } from '../rotations/schemas.js';
import { ScheduleTimeOff } from '../time-offs/schemas.js';
import { ScheduleWorkType } from '../work-types/schemas.js';
import { ScheduleGroupStaffing } from '../group-minimums/schemas.js';

export const ScheduleQuery = Type.Object({ start: LocalDateTime, end: LocalDateTime });

/** `{id, href, name}` in the order the schedule samples write it. */
export const ScheduleUserRef = LinkRef;
export type ScheduleUserRef = Static<typeof ScheduleUserRef>;

export const ScheduleShift = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  start: Type.String(),
  end: Type.String(),
  length: Hours,
  break_start: Nullable(Type.String()),
  break_end: Nullable(Type.String()),
  break_length: Hours,
  hold_over: Type.Integer(),
  recurring: Type.Boolean(),
  user: ScheduleUserRef,
  scheduled_by: Nullable(ScheduleUserRef),
  work_type: ScheduleWorkType,
  labels: Type.Array(ScheduleLabel),
  qualifiers: Type.Array(ScheduleQualifier),
  groups: Type.Array(Type.Object({ id: Type.Integer(), label: Type.String() })),
});
export type ScheduleShift = Static<typeof ScheduleShift>;

export const ScheduleAssignment = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  date: Type.String(),
  start: Type.String(),
  end: Type.String(),
  name: Type.String(),
  qualifiers_needed: Type.Array(QualifierNeededResponse),
  minimum_staffing: Type.Integer(),
  is_finalized: Type.Boolean(),
  notes: Nullable(Type.String()),
  shifts: Type.Array(ScheduleShift),
  staffing: Staffing,
});
export type ScheduleAssignment = Static<typeof ScheduleAssignment>;

export const ScheduleDay = Type.Object({
  date: Type.String(),
  assignments: Type.Array(ScheduleAssignment),
  time_off: Type.Array(ScheduleTimeOff),
  callbacks: Type.Array(ScheduleCallback),
  trades: Type.Array(ScheduleTrade),
  misc: Type.Array(ScheduleMisc),
  notes: Type.Array(Type.String()),
  activities: Type.Array(Type.String()),
  kelly_days: Type.Optional(
    Type.Array(ScheduleKellyDay, {
      description: 'Extension: Kelly days of rotation members that day (absent when none).',
    }),
  ),
  group_staffing: Type.Optional(
    Type.Array(ScheduleGroupStaffing, {
      description:
        'Extension: the staffing of each assignment group with a minimum (GET /group_minimums) whose ' +
        'assignments are on the day; absent when none (docs/contract-rules.md).',
    }),
  ),
});
export type ScheduleDay = Static<typeof ScheduleDay>;

export const ScheduleResponse = Type.Object({
  start: Type.String(),
  end: Type.String(),
  days: Type.Array(ScheduleDay),
  prev: Type.Object({ href: Type.String() }),
  next: Type.Object({ href: Type.String() }),
});
export type ScheduleResponse = Static<typeof ScheduleResponse>;

export { ScheduleKellyDay, ScheduleMisc, ScheduleTimeOff };

/** The parts of a schedule day, each serialized the way the whole response's serializer would write it. */
export const ScheduleParts = {
  assignment: ScheduleAssignment,
  timeOff: Type.Array(ScheduleTimeOff),
  kellyDays: Type.Array(ScheduleKellyDay),
  groupStaffing: Type.Array(ScheduleGroupStaffing),
  callbacks: Type.Array(ScheduleCallback),
  trades: Type.Array(ScheduleTrade),
  misc: Type.Array(ScheduleMisc),
  strings: Type.Array(Type.String()),
  /** the response, written with `days: []` */
  envelope: ScheduleResponse,
};

/** The parts' serializers (fast-json-stringify, by schema). */
export type ScheduleJson = { [K in keyof typeof ScheduleParts]: (value: Static<(typeof ScheduleParts)[K]>) => string };
