import { Type, type Static } from '@sinclair/typebox';
import { NullableInput, SuccessWith } from '../../core/schemas.js';

const NullableHours = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

export const FatigueRulesResponse = Type.Object({
  max_consecutive_hours: NullableHours('most hours worked in one stretch; null: no limit'),
  stretch_break_hours: Type.Number({ description: 'hours off that end a stretch (closer work is one stretch)' }),
  rest_hours: NullableHours('rest after a long stretch: hours off required; null (all three): off'),
  rest_after_hours: NullableHours('… after this many hours worked …'),
  rest_within_hours: NullableHours('… within this many hours'),
  max_period_hours: NullableHours('most hours worked in one work period (GET /work_period); null: no limit'),
  period: Type.Object(
    { days: Type.Integer(), start: Type.String() },
    { description: 'the work period max_period_hours counts over (GET /work_period)' },
  ),
});
export type FatigueRulesResponse = Static<typeof FatigueRulesResponse>;

const Hours = (maximum: number) =>
  Type.Optional(NullableInput(Type.Number({ exclusiveMinimum: 0, maximum, description: 'null turns the rule off' })));

export const ChangeFatigueRulesBody = Type.Object({
  max_consecutive_hours: Hours(10_000),
  stretch_break_hours: Type.Optional(Type.Number({ minimum: 0, maximum: 168 })),
  rest_hours: Hours(168),
  rest_after_hours: Hours(10_000),
  rest_within_hours: Hours(10_000),
  max_period_hours: Hours(672),
});
export type ChangeFatigueRulesBody = Static<typeof ChangeFatigueRulesBody>;

export const FatigueRulesWriteResponse = SuccessWith({ fatigue_rules: FatigueRulesResponse });

/** An admin's reason to put someone to work over a fatigue rule (extension field on the paths that enforce them). */
export const OverrideReason = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 500,
    description:
      "extension: an admin's reason to go over the department's fatigue rules (docs/contract-rules.md); logged",
  }),
);
