import { Type } from '@sinclair/typebox';
import { Hours, Id, LocalDateTime, UserRef, NullableString } from '../../core/schemas.js';

export const OvertimeQuery = Type.Object({ start: LocalDateTime, end: LocalDateTime, user_id: Type.Optional(Id) });

export const OvertimeRowResponse = Type.Object({
  user: UserRef,
  employee_id: NullableString(),
  period_start: Type.String({ description: "YYYY-MM-DD hh:mm:ss: the work period's start (organization time zone)" }),
  period_end: Type.String({ description: "YYYY-MM-DD hh:mm:ss: the next period's start" }),
  worked_hours: {
    ...Hours,
    description: 'worked shift hours inside the period (breaks out, hold-over in) plus misc hours dated in it',
  },
  time_off_hours: { ...Hours, description: 'approved time off hours charged inside the period, of every type' },
  counted_hours: { ...Hours, description: 'worked_hours + time_off_hours of types that count as worked' },
  threshold_hours: Hours,
  regular_hours: { ...Hours, description: 'counted_hours − overtime_hours' },
  overtime_hours: { ...Hours, description: 'max(0, counted_hours − threshold_hours)' },
});
