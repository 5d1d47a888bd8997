import { Type, type Static } from '@sinclair/typebox';
import { LocalDateTime, SuccessWith } from '../../core/schemas.js';

const Days = Type.Integer({
  minimum: 7,
  maximum: 28,
  description: 'length of a work period in days (FLSA 7(k): 7 to 28)',
});
const ThresholdHours = Type.Number({
  exclusiveMinimum: 0,
  maximum: 672,
  description: 'hours worked in a period above which hours are overtime',
});
const Start = {
  ...LocalDateTime,
  description: 'the local datetime one period starts at; periods repeat every `days` wall-clock days from it',
};

export const WorkPeriodResponse = Type.Object({
  days: Type.Integer(),
  threshold_hours: Type.Number(),
  start: Type.String({ description: 'YYYY-MM-DD hh:mm:ss (organization time zone)' }),
});
export type WorkPeriodResponse = Static<typeof WorkPeriodResponse>;

export const ChangeWorkPeriodBody = Type.Object({
  days: Type.Optional(Days),
  threshold_hours: Type.Optional(ThresholdHours),
  start: Type.Optional(Type.String(Start)),
});
export type ChangeWorkPeriodBody = Static<typeof ChangeWorkPeriodBody>;

export const WorkPeriodWriteResponse = SuccessWith({
  work_period: WorkPeriodResponse,
});
