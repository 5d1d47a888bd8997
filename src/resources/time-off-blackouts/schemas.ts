import { Type, type Static } from '@sinclair/typebox';
import { DateStr, Id, NullableString, nullableText } from '../../core/schemas.js';

export const BlackoutBody = Type.Object({
  time_off_type_id: Id,
  start_date: DateStr,
  end_date: DateStr,
  reason: Type.Optional(nullableText(200, 'at most 200 characters, e.g. "Fourth of July"')),
});
export type BlackoutBody = Static<typeof BlackoutBody>;

export const BlackoutQuery = Type.Object({ time_off_type_id: Type.Optional(Id) });

export const BlackoutResponse = Type.Object({
  id: Type.Integer(),
  time_off_type_id: Type.Integer(),
  start_date: Type.String(),
  end_date: Type.String(),
  reason: NullableString(),
});
export type BlackoutResponse = Static<typeof BlackoutResponse>;
