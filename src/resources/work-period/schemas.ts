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

const TradeHoursCountFor = Type.Union([Type.Literal('scheduled'), Type.Literal('worker')], {
  description:
    "whose hours of work a trade's hours are: `scheduled` (FLSA §7(p)(3), 29 CFR 553.31: the person " +
    'scheduled, the default) or `worker` (the substitute who works them); overtime and payroll follow it',
});

export const WorkPeriodResponse = Type.Object({
  days: Type.Integer(),
  threshold_hours: Type.Number(),
  start: Type.String({ description: 'YYYY-MM-DD hh:mm:ss (organization time zone)' }),
  trade_hours_count_for: TradeHoursCountFor,
});
export type WorkPeriodResponse = Static<typeof WorkPeriodResponse>;

export const ChangeWorkPeriodBody = Type.Object({
  days: Type.Optional(Days),
  threshold_hours: Type.Optional(ThresholdHours),
  start: Type.Optional(Type.String(Start)),
  trade_hours_count_for: Type.Optional(TradeHoursCountFor),
});
export type ChangeWorkPeriodBody = Static<typeof ChangeWorkPeriodBody>;

export const WorkPeriodWriteResponse = SuccessWith({
  work_period: WorkPeriodResponse,
});
