import { Type, type Static } from '@sinclair/typebox';
import { Hours, Id, LocalDateTime, Nullable, NullableString } from '../../core/schemas.js';

export const PayrollQuery = Type.Object({ start: LocalDateTime, end: LocalDateTime, user_id: Type.Optional(Id) });
export const UserPayrollQuery = Type.Object({ start: LocalDateTime, end: LocalDateTime });

export const PayrollRow = Type.Object({
  type: Type.String({
    description:
      '`work shift`, `time off` or `misc`; extension: `adjustment`, a change of time off charged on a finalized day',
  }),
  user_id: Type.String(),
  employee_id: NullableString(),
  name: Type.String(),
  work_type: NullableString(),
  work_subtype: NullableString(),
  work_code: NullableString(),
  start: NullableString(),
  end: NullableString(),
  assignment_id: Nullable(Type.Integer()),
  assignment_name: NullableString(),
  labels: NullableString(),
  notes: NullableString(),
  total_hours: Hours,
  hold_over: Type.Optional(
    Type.Number({
      description:
        'Extension: hours held over past the scheduled end, included in total_hours (work shift rows held ' +
        'over; absent otherwise).',
      'x-crewplan-extension': true,
    }),
  ),
  flagged_date: Type.Optional(
    Type.String({
      description:
        'Extension: on `adjustment` rows, the finalized day the change reached into; its hours (time off paid ' +
        'more, or less when negative) land in the open period, dated when the change was made (absent otherwise).',
      'x-crewplan-extension': true,
    }),
  ),
  worked_by: Type.Optional(
    Type.Object(
      { user_id: Type.String(), name: Type.String() },
      {
        description:
          'Extension: on a work shift row paid to the scheduled person for hours a substitute worked on a ' +
          'trade (FLSA §7(p)(3), GET /work_period `trade_hours_count_for`: `scheduled`), who worked them.',
        'x-crewplan-extension': true,
      },
    ),
  ),
});
export type PayrollRow = Static<typeof PayrollRow>;
