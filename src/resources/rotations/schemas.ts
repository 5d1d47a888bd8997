import { OverrideReason } from '../fatigue-rules/schemas.js';
import { OffLimitWarnings } from '../time-offs/limits.js';
import { Type, type Static } from '@sinclair/typebox';
import {
  DateStr,
  Hours,
  Id,
  LongText,
  Nullable,
  NullableInput,
  PathId,
  ShortText,
  LinkRef,
  UserRef,
  NullableString,
} from '../../core/schemas.js';
import { PRESETS } from '../../scheduling/rotation-pattern.js';

const PatternEntry = Type.Integer({ minimum: 0, maximum: 20 });

export const RotationBody = Type.Object({
  name: ShortText({ minLength: 1 }),
  anchor_date: DateStr,
  preset: Type.Optional(
    Type.Union(
      Object.keys(PRESETS).map((key) => Type.Literal(key)),
      { description: 'a shipped pattern with its crews' },
    ),
  ),
  pattern: Type.Optional(
    Type.Array(PatternEntry, {
      minItems: 1,
      maxItems: 366,
      description: "0 off, k ≥ 1 on at the member's k-th assignment",
    }),
  ),
  crews: Type.Optional(Type.Record(Type.String({ maxLength: 20 }), Type.Integer({ minimum: 0 }))),
  kelly_every: Type.Optional(NullableInput(Type.Integer({ minimum: 2, maximum: 100 }))),
  kelly_code: Type.Optional(
    ShortText({ minLength: 1, maxLength: 10, description: 'how a Kelly day shows on the schedule (default KD)' }),
  ),
  kelly_name: Type.Optional(ShortText({ minLength: 1, maxLength: 100, description: 'default: Kelly day' })),
});
export type RotationBody = Static<typeof RotationBody>;

/** Partial: only the fields sent change; `{}` is a no-op (docs/decisions/0016-request-input-forms.md). */
export const RotationPatchBody = Type.Object({
  name: Type.Optional(ShortText({ minLength: 1 })),
  kelly_code: Type.Optional(ShortText({ minLength: 1, maxLength: 10 })),
  kelly_name: Type.Optional(ShortText({ minLength: 1, maxLength: 100 })),
});
export type RotationPatchBody = Static<typeof RotationPatchBody>;

export const RotationResponse = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  name: Type.String(),
  anchor_date: Type.String(),
  pattern: Type.Array(Type.Integer()),
  crews: Type.Record(Type.String(), Type.Integer()),
  kelly_every: Nullable(Type.Integer()),
  kelly_code: Type.String(),
  kelly_name: Type.String(),
  cycle_days: Type.Integer(),
});
export type RotationResponse = Static<typeof RotationResponse>;

const Time = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d)?$', description: 'hh:mm wall-clock time' });

const memberFields = {
  assignment_id: Type.Optional(Id),
  assignment_ids: Type.Optional(
    Type.Array(Id, { minItems: 1, maxItems: 20, description: 'compound rotation: slot k works at the k-th' }),
  ),
  crew: Type.Optional(Type.String({ maxLength: 20, description: 'crew name of the rotation, e.g. B' })),
  crew_offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
  kelly_offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  end_date: Type.Optional(NullableInput(DateStr)),
  work_type_id: Type.Optional(Id),
  work_subtype_id: Type.Optional(NullableInput(Id)),
  break_start: Type.Optional(NullableInput(Time)),
  break_length: Type.Optional(Type.Number({ minimum: 0, maximum: 24 })),
  notes: Type.Optional(NullableInput(LongText())),
  admin_id: Type.Optional(Id),
  override_reason: OverrideReason,
};

export const RecurringShiftBody = Type.Object({
  user_id: Id,
  rotation_id: Id,
  start_date: DateStr,
  ...memberFields,
});
export type RecurringShiftBody = Static<typeof RecurringShiftBody>;

export const RecurringShiftPatchBody = Type.Object({
  effective_date: Type.Optional(DateStr),
  rotation_id: Type.Optional(Id),
  ...memberFields,
});
export type RecurringShiftPatchBody = Static<typeof RecurringShiftPatchBody>;

export const EndSeriesQuery = Type.Object({ effective_date: Type.Optional(DateStr), admin_id: Type.Optional(Id) });

export const ListRecurringShiftsQuery = Type.Object({ user_id: Type.Optional(Id), rotation_id: Type.Optional(Id) });

export const ExceptionBody = Type.Object({
  date: DateStr,
  action: Type.Union([Type.Literal('remove'), Type.Literal('move')]),
  start: Type.Optional(Type.String({ format: 'local-datetime' })),
  end: Type.Optional(Type.String({ format: 'local-datetime' })),
  assignment_id: Type.Optional(Id),
  reason: Type.Optional(ShortText()),
  admin_id: Type.Optional(Id),
  override_reason: OverrideReason,
});
export type ExceptionBody = Static<typeof ExceptionBody>;

export const ExceptionParams = Type.Object({ id: PathId, date: DateStr });

export const ExceptionResponse = Type.Object({
  date: Type.String(),
  kind: Type.String(),
  assignment_id: Nullable(Type.Integer()),
  start: NullableString(),
  end: NullableString(),
  reason: NullableString(),
});

export const RecurringShiftResponse = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  user: UserRef,
  rotation: Type.Object({ id: Type.Integer(), name: Type.String() }),
  assignment_ids: Type.Array(Type.Integer()),
  crew_offset: Type.Integer(),
  kelly_offset: Type.Integer(),
  start_date: Type.String(),
  end_date: NullableString(),
  work_type_id: Type.Integer(),
  work_subtype_id: Nullable(Type.Integer()),
  break_start: NullableString(),
  break_length: Hours,
  notes: NullableString(),
  scheduled_by: Nullable(UserRef),
  previous_id: Nullable(Type.Integer()),
  exceptions: Type.Array(ExceptionResponse),
  /** on POST and PATCH: off limits the tours it puts under approved leave go past (docs/contract-rules.md) */
  warnings: OffLimitWarnings,
});
export type RecurringShiftResponse = Static<typeof RecurringShiftResponse>;

/** Extension: a rotation member's Kelly day (a skipped occurrence, never worked or paid). */
export const ScheduleKellyDay = Type.Object(
  {
    user: LinkRef,
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
