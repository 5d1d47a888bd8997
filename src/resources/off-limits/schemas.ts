import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable, NullableInput, ShortText } from '../../core/schemas.js';
import { OFF_LIMIT_ACTIONS } from './table.js';

const Action = Type.Union(
  OFF_LIMIT_ACTIONS.map((a) => Type.Literal(a)),
  { description: 'warn: allowed, with a warning; require_approval: only an admin may approve; refuse: 422' },
);
const MaxOff = Type.Integer({ minimum: 0, maximum: 10_000, description: 'at most this many off per day' });
const Platoon = ShortText({ minLength: 1, maxLength: 100, description: "the visual cycles' name marking its days" });
const TypeIds = Type.Array(Id, { maxItems: 100, description: 'time off type ids; empty or absent: every type' });

export const CreateOffLimitBody = Type.Object({
  name: ShortText({ minLength: 1, maxLength: 200 }),
  max_off: MaxOff,
  action: Action,
  platoon: Type.Optional(NullableInput(Platoon)),
  assignment_group_id: Type.Optional(NullableInput(Id)),
  qualifier_id: Type.Optional(NullableInput(Id)),
  time_off_type_ids: Type.Optional(TypeIds),
});
export type CreateOffLimitBody = Static<typeof CreateOffLimitBody>;

export const ChangeOffLimitBody = Type.Partial(CreateOffLimitBody);
export type ChangeOffLimitBody = Static<typeof ChangeOffLimitBody>;

export const OffLimitResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  max_off: Type.Integer(),
  action: Type.String(),
  platoon: Nullable(Type.String()),
  assignment_group_id: Nullable(Type.Integer()),
  qualifier_id: Nullable(Type.Integer()),
  time_off_type_ids: Type.Array(Type.Integer()),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type OffLimitResponse = Static<typeof OffLimitResponse>;
