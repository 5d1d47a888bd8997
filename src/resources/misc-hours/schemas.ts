import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DateStr, Hours, Id, LocalDateTime, LongText, Nullable, UserRef } from '../../core/schemas.js';

/** Null listed first: with Ajv's type coercion, `Nullable(String)` would turn a null input into "". */
const OrNull = <T extends TSchema>(schema: T) => Type.Union([Type.Null(), schema]);

export const MiscHourResponse = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  date: Type.String(),
  length: Type.Number(),
  user: UserRef,
  work_type: Nullable(Type.String()),
  work_type_id: Type.Integer(),
  work_subtype_id: Nullable(Type.Integer()),
  start: Nullable(Type.String()),
  end: Nullable(Type.String()),
  notes: Nullable(Type.String()),
});
export type MiscHourResponse = Static<typeof MiscHourResponse>;

export const CreateMiscHourBody = Type.Object({
  user_id: Id,
  date: DateStr,
  work_type_id: Id,
  work_subtype_id: Type.Optional(OrNull(Id)),
  start: Type.Optional(LocalDateTime),
  end: Type.Optional(LocalDateTime),
  length: Type.Optional({ ...Hours, exclusiveMinimum: 0, maximum: 744 }),
  notes: Type.Optional(OrNull(LongText())),
});
export type CreateMiscHourBody = Static<typeof CreateMiscHourBody>;

export const MiscHoursQuery = Type.Object({
  start: Type.Optional(DateStr),
  end: Type.Optional(DateStr),
  user_id: Type.Optional(Id),
});
export type MiscHoursQuery = Static<typeof MiscHoursQuery>;
