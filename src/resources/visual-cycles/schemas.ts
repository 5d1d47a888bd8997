import { Type, type Static } from '@sinclair/typebox';
import { Color, DateStr, Id, LocalDateTime, Nullable, ShortText, NullableString } from '../../core/schemas.js';

export const VisualCycleResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  start: Type.String(),
  end: Type.String(),
  color: Type.String(),
  text_color: Type.String(),
  created_by: Nullable(Type.Integer()),
  created_at: Type.String(),
  deleted_by: Nullable(Type.Integer()),
  deleted_at: NullableString(),
});
export type VisualCycleResponse = Static<typeof VisualCycleResponse>;

export const VisualCycleQuery = Type.Object({
  start: Type.Optional(DateStr),
  end: Type.Optional(DateStr),
});
export type VisualCycleQuery = Static<typeof VisualCycleQuery>;

/** `start`/`end` are dates; a datetime is accepted and its date kept. */
const CycleDay = LocalDateTime;

export const CreateVisualCycleBody = Type.Object({
  name: ShortText({ minLength: 1 }),
  start: CycleDay,
  end: CycleDay,
  color: Color,
  text_color: Color,
  created_by: Type.Optional(Id),
});
export type CreateVisualCycleBody = Static<typeof CreateVisualCycleBody>;

export const ChangeVisualCycleBody = Type.Object({
  name: Type.Optional(ShortText({ minLength: 1 })),
  start: Type.Optional(CycleDay),
  end: Type.Optional(CycleDay),
  color: Type.Optional(Color),
  text_color: Type.Optional(Color),
  admin_id: Type.Optional(Id),
});
export type ChangeVisualCycleBody = Static<typeof ChangeVisualCycleBody>;

export const DeleteVisualCycleQuery = Type.Object({ deleted_by: Type.Optional(Id) });
