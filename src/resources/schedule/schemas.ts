import { Type, type Static } from '@sinclair/typebox';
import { Hours, LocalDateTime, Nullable, LinkRef } from '../../core/schemas.js';
import { ScheduleCallback } from '../callbacks/schemas.js';
import { ScheduleTrade } from '../trades/schemas.js';

export const ScheduleQuery = Type.Object({ start: LocalDateTime, end: LocalDateTime });

/** `{id, href, name}` in the order the schedule samples write it. */
export const ScheduleUserRef = LinkRef;
export type ScheduleUserRef = Static<typeof ScheduleUserRef>;

const Subtype = Type.Object({ id: Type.Integer(), label: Type.String() });

export const ScheduleWorkType = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  name: Type.String(),
  work_code: Nullable(Type.String()),
  color: Type.String(),
  text_color: Type.String(),
  subtypes: Type.Array(Subtype),
});

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
  labels: Type.Array(
    Type.Object({
      id: Type.Integer(),
      href: Type.String(),
      label: Type.String(),
      color: Type.String(),
      text_color: Type.String(),
    }),
  ),
  qualifiers: Type.Array(
    Type.Object({
      id: Type.Integer(),
      href: Type.String(),
      shortcode: Nullable(Type.String()),
      name: Type.String(),
      color: Nullable(Type.String()),
      text_color: Nullable(Type.String()),
    }),
  ),
  groups: Type.Array(Type.Object({ id: Type.Integer(), label: Type.String() })),
});
export type ScheduleShift = Static<typeof ScheduleShift>;

export const QualifierNeeded = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  shortcode: Nullable(Type.String()),
  color: Nullable(Type.String()),
  text_color: Nullable(Type.String()),
  minimum_staffing: Type.Integer(),
});

/** Extension: the occurrence's staffing as the engine judges it (docs/schedule.md, "Staffing and vacancies"). */
export const Staffing = Type.Object(
  {
    scheduled: Type.Integer({
      description: 'People on the occurrence for all of it (the fewest on duty at any moment).',
    }),
    needed: Type.Integer({
      description: "The assignment's positions to fill; 0 when it is not a work shift or does not occur that day.",
    }),
    open: Type.Integer({ description: 'Seats open: needed − scheduled, at least 0.' }),
    qualifier_shortfalls: Type.Array(
      Type.Object({
        id: Type.Integer(),
        shortcode: Nullable(Type.String()),
        needed: Type.Integer(),
        have: Type.Integer(),
      }),
      { description: 'Qualifiers held by fewer people on duty than the assignment needs.' },
    ),
    short_from: Nullable(Type.String({ description: 'First moment the occurrence is short (null when it is not).' })),
    short_until: Nullable(Type.String({ description: 'End of the last moment it is short.' })),
  },
  { 'x-crewplan-extension': true },
);
export type Staffing = Static<typeof Staffing>;

export const ScheduleAssignment = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  date: Type.String(),
  start: Type.String(),
  end: Type.String(),
  name: Type.String(),
  qualifiers_needed: Type.Array(QualifierNeeded),
  minimum_staffing: Type.Integer(),
  is_finalized: Type.Boolean(),
  notes: Nullable(Type.String()),
  shifts: Type.Array(ScheduleShift),
  staffing: Staffing,
});
export type ScheduleAssignment = Static<typeof ScheduleAssignment>;

export const ScheduleTimeOff = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  start: Type.String(),
  end: Type.String(),
  user: ScheduleUserRef,
  admin: Nullable(ScheduleUserRef),
  time_off_type: ScheduleWorkType,
});
export type ScheduleTimeOff = Static<typeof ScheduleTimeOff>;

export const ScheduleMisc = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  date: Type.String(),
  length: Hours,
  user: ScheduleUserRef,
  work_type: Nullable(Type.String()),
});
export type ScheduleMisc = Static<typeof ScheduleMisc>;

/** Extension: a rotation member's Kelly day (a skipped occurrence, never worked or paid). */
export const ScheduleKellyDay = Type.Object(
  {
    user: ScheduleUserRef,
    recurring_shift_id: Type.Integer(),
    rotation: Type.Object({ id: Type.Integer(), name: Type.String() }),
    code: Type.String(),
    name: Type.String(),
    assignment_id: Type.Integer(),
    start: Type.String(),
    end: Type.String(),
  },
  { 'x-crewplan-extension': true },
);
export type ScheduleKellyDay = Static<typeof ScheduleKellyDay>;

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
