import { OverrideReason } from '../fatigue-rules/schemas.js';
import { Type, type Static } from '@sinclair/typebox';
import {
  DateStr,
  Hours,
  Id,
  LocalDateTime,
  LongText,
  Nullable,
  NullableInput,
  LinkRef,
  UserRef,
  NullableString,
} from '../../core/schemas.js';

export const MiscHourResponse = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  date: Type.String(),
  length: Type.Number(),
  user: UserRef,
  work_type: NullableString(),
  work_type_id: Type.Integer(),
  work_subtype_id: Nullable(Type.Integer()),
  start: NullableString(),
  end: NullableString(),
  notes: NullableString(),
});
export type MiscHourResponse = Static<typeof MiscHourResponse>;

export const CreateMiscHourBody = Type.Object({
  user_id: Id,
  date: DateStr,
  work_type_id: Id,
  work_subtype_id: Type.Optional(NullableInput(Id)),
  start: Type.Optional(LocalDateTime),
  end: Type.Optional(LocalDateTime),
  length: Type.Optional({ ...Hours, exclusiveMinimum: 0, maximum: 744 }),
  notes: Type.Optional(NullableInput(LongText())),
  override_reason: OverrideReason,
});
export type CreateMiscHourBody = Static<typeof CreateMiscHourBody>;

export const MiscHoursQuery = Type.Object({
  start: Type.Optional(DateStr),
  end: Type.Optional(DateStr),
  user_id: Type.Optional(Id),
});
export type MiscHoursQuery = Static<typeof MiscHoursQuery>;

/** Misc hours as GET /schedule lists them under their date. */
export const ScheduleMisc = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  date: Type.String(),
  length: Hours,
  user: LinkRef,
  work_type: Nullable(Type.String()),
});
export type ScheduleMisc = Static<typeof ScheduleMisc>;
