import { Type, type Static } from '@sinclair/typebox';
import { Nullable, NullableInput } from '../../core/schemas.js';

export const AutoAcceptBody = Type.Object({
  enabled: Type.Boolean({ description: 'true: offers within the limits below are accepted at once' }),
  max_hours: Type.Number({
    exclusiveMinimum: 0,
    maximum: 744,
    description: 'hours of auto-accepted callbacks per period, the one being accepted included',
  }),
  period: Type.Union([Type.Literal('week'), Type.Literal('month')], {
    description: "the Monday-to-Sunday week or the calendar month of the callback's start",
  }),
  assignment_ids: Type.Optional(
    NullableInput(
      Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: 500, uniqueItems: true }),
    ),
  ),
  weekdays: Type.Optional(
    NullableInput(
      Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { minItems: 1, maxItems: 7, uniqueItems: true }),
    ),
  ),
});
export type AutoAcceptBody = Static<typeof AutoAcceptBody>;

export const AutoAcceptResponse = Type.Object({
  user_id: Type.Integer(),
  enabled: Type.Boolean(),
  max_hours: Type.Number(),
  period: Type.String(),
  assignment_ids: Nullable(Type.Array(Type.Integer())),
  weekdays: Nullable(Type.Array(Type.Integer())),
});
export type AutoAcceptResponse = Static<typeof AutoAcceptResponse>;
