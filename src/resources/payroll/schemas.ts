import { Type, type Static } from '@sinclair/typebox';
import { Hours, Id, LocalDateTime, Nullable } from '../../core/schemas.js';

export const PayrollQuery = Type.Object({ start: LocalDateTime, end: LocalDateTime, user_id: Type.Optional(Id) });
export const UserPayrollQuery = Type.Object({ start: LocalDateTime, end: LocalDateTime });

export const PayrollRow = Type.Object({
  type: Type.String({ description: '`work shift`, `time off` or `misc`' }),
  user_id: Type.String(),
  employee_id: Nullable(Type.String()),
  name: Type.String(),
  work_type: Nullable(Type.String()),
  work_subtype: Nullable(Type.String()),
  work_code: Nullable(Type.String()),
  start: Nullable(Type.String()),
  end: Nullable(Type.String()),
  assignment_id: Nullable(Type.Integer()),
  assignment_name: Nullable(Type.String()),
  labels: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  total_hours: Hours,
  hold_over: Type.Optional(
    Type.Number({
      description:
        'Extension: hours held over past the scheduled end, included in total_hours (work shift rows held ' +
        'over; absent otherwise).',
      'x-crewplan-extension': true,
    }),
  ),
});
export type PayrollRow = Static<typeof PayrollRow>;
