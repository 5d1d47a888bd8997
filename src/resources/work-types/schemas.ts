import { Type, type Static } from '@sinclair/typebox';
import { Color, Id, Nullable, NullableInput, ShortText, SuccessWith, NullableString } from '../../core/schemas.js';

export const WorkTypeResponse = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  work_code: NullableString(),
  primary_color: Type.String(),
  secondary_color: Type.String(),
  excludes_from_callback: Type.Boolean(),
  position: Type.Integer(),
  href: Type.String(),
});

export const WorkSubtypeResponse = Type.Object({
  id: Type.Integer(),
  work_type_id: Type.Integer(),
  label: Type.String(),
  work_code: NullableString(),
});

const workTypeFields = {
  label: ShortText({ minLength: 1 }),
  work_code: Type.Optional(NullableInput(ShortText())),
  primary_color: Type.Optional(Color),
  secondary_color: Type.Optional(Color),
  excludes_from_callback: Type.Optional(Type.Boolean()),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
};
export const CreateWorkTypeBody = Type.Object(workTypeFields);
export type CreateWorkTypeBody = Static<typeof CreateWorkTypeBody>;
export const UpdateWorkTypeBody = Type.Partial(Type.Object(workTypeFields));
export type UpdateWorkTypeBody = Static<typeof UpdateWorkTypeBody>;

export const CreateWorkSubtypeBody = Type.Object({
  work_type_id: Id,
  label: ShortText({ minLength: 1 }),
  work_code: Type.Optional(NullableInput(ShortText())),
});
export type CreateWorkSubtypeBody = Static<typeof CreateWorkSubtypeBody>;
export const UpdateWorkSubtypeBody = Type.Partial(CreateWorkSubtypeBody);
export type UpdateWorkSubtypeBody = Static<typeof UpdateWorkSubtypeBody>;

export const WorkTypeWriteResponse = SuccessWith(WorkTypeResponse.properties);
export const WorkSubtypeWriteResponse = SuccessWith(WorkSubtypeResponse.properties);

/** A work type (or a time off type) as GET /schedule names it. */
const Subtype = Type.Object({ id: Type.Integer(), label: Type.String() });

export const ScheduleWorkType = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  name: Type.String(),
  work_code: Nullable(Type.String()),
  color: Type.String(),
  text_color: Type.String(),
  subtypes: Type.Array(Subtype),
});
