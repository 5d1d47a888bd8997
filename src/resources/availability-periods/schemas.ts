import { nullableText } from '../../core/schemas.js';
import { Type, type Static } from '@sinclair/typebox';
import {
  Id,
  IdName,
  LocalDateTime,
  Nullable,
  NullableInput,
  ShortText,
  UserRef,
  NullableString,
} from '../../core/schemas.js';

export const PeriodsQuery = Type.Object({ start: LocalDateTime, end: LocalDateTime });
export type PeriodsQuery = Static<typeof PeriodsQuery>;

export const CreatePeriodBody = Type.Object({
  user_id: Id,
  start: LocalDateTime,
  end: LocalDateTime,
  unavailability_reason_id: Type.Optional(NullableInput(Id)),
  admin_id: Type.Optional(NullableInput(Id)),
  notes: Type.Optional(nullableText(1000, 'at most 1000 characters')),
});
export type CreatePeriodBody = Static<typeof CreatePeriodBody>;

export const PeriodResponse = Type.Object({
  id: Type.Integer(),
  user: UserRef,
  start: Type.String(),
  end: Type.String(),
  admin: UserRef,
  notes: NullableString(),
  unavailability_reason: Nullable(IdName),
});

export const ReasonBody = Type.Object({ name: ShortText({ minLength: 1 }) });
export type ReasonBody = Static<typeof ReasonBody>;
/** Partial: only the fields sent change; `{}` is a no-op (docs/decisions/0016-request-input-forms.md). */
export const ReasonPatchBody = Type.Object({ name: Type.Optional(ShortText({ minLength: 1 })) });
export type ReasonPatchBody = Static<typeof ReasonPatchBody>;
export const ReasonResponse = IdName;
