import { Type, type Static } from '@sinclair/typebox';
import { DateStr, Id, LocalDateTime, Nullable, ShortText } from '../../core/schemas.js';

export const CreateBidRoundBody = Type.Object({
  name: ShortText({ maxLength: 200 }),
  year: Type.Integer({ minimum: 2000, maximum: 2100, description: 'picks fall in this calendar year' }),
  time_off_type_ids: Type.Array(Id, { minItems: 1, maxItems: 50, description: 'the types a pick may take' }),
  group_id: Type.Optional(Id),
  user_ids: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 1000, description: 'members (no group_id)' })),
  turn_minutes: Type.Integer({ minimum: 1, maximum: 43_200, description: 'the window of each turn' }),
  turns_per_member: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'default 1' })),
  opens_at: LocalDateTime,
});
export type CreateBidRoundBody = Static<typeof CreateBidRoundBody>;

export const BidPickBody = Type.Object({
  user_id: Id,
  start_date: DateStr,
  end_date: DateStr,
  time_off_type_id: Id,
});
export type BidPickBody = Static<typeof BidPickBody>;

const Turn = Type.Object({
  turn: Type.Integer({ description: '1-based' }),
  kind: Type.Union([Type.Literal('pick'), Type.Literal('pass')]),
  time_off_id: Nullable(Type.Integer()),
  start_date: Nullable(Type.String()),
  end_date: Nullable(Type.String()),
  time_off_type_id: Nullable(Type.Integer()),
});

export const BidRoundResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  year: Type.Integer(),
  time_off_type_ids: Type.Array(Type.Integer()),
  group_id: Nullable(Type.Integer()),
  turn_minutes: Type.Integer(),
  turns_per_member: Type.Integer(),
  opens_at: Type.String(),
  status: Type.String({ description: 'draft, open, paused or closed' }),
  current_turn: Nullable(
    Type.Object({
      turn: Type.Integer({ description: '1-based' }),
      user_id: Type.Integer(),
      name: Type.String(),
      /** local datetimes; null while paused */
      from: Type.String(),
      until: Nullable(Type.String()),
    }),
  ),
  members: Type.Array(
    Type.Object({
      position: Type.Integer({ description: 'seniority order, 1 first' }),
      user_id: Type.Integer(),
      name: Type.String(),
      date_of_hire: Nullable(Type.String()),
      turns: Type.Array(Turn),
    }),
  ),
});
export type BidRoundResponse = Static<typeof BidRoundResponse>;
