import { Type, type Static } from '@sinclair/typebox';
import {
  DateStr,
  Id,
  IsoDateTime,
  LocalDateTime,
  LongText,
  Nullable,
  NullableInput,
  PathId,
  UserRef,
} from '../../core/schemas.js';
import { OverrideReason } from '../fatigue-rules/schemas.js';
import { ForVacancy } from './for-vacancy.js';

const IdList = Type.Array(Id, { maxItems: 100 });

const optionalFields = {
  work_subtype_id: Type.Optional(NullableInput(Id)),
  notes: Type.Optional(NullableInput(LongText())),
  from_callback: Type.Optional(NullableInput(Id)),
  traded_with: Type.Optional(NullableInput(Id)),
  // null, as GET /shifts writes no labels, is none
  labels: Type.Optional(NullableInput(IdList)),
  qualifiers: Type.Optional(NullableInput(IdList)),
  break_start: Type.Optional(NullableInput(LocalDateTime)),
  break_end: Type.Optional(NullableInput(LocalDateTime)),
  hold_over: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 48, description: 'extension: hours held over past the end' }),
  ),
  admin_id: Type.Optional(Id),
  force: Type.Optional(Type.Boolean({ description: 'extension: schedule the shift even over approved time off' })),
  override_reason: OverrideReason,
};

export const CreateShiftBody = Type.Object({
  assignment_id: Id,
  user_id: Id,
  date: DateStr,
  start: LocalDateTime,
  end: LocalDateTime,
  work_type_id: Id,
  ...optionalFields,
  for_vacancy: Type.Optional(ForVacancy),
});
export type CreateShiftBody = Static<typeof CreateShiftBody>;

export const UpdateShiftBody = Type.Object({
  date: DateStr,
  start: LocalDateTime,
  end: LocalDateTime,
  assignment_id: Type.Optional(Id),
  user_id: Type.Optional(Id),
  work_type_id: Type.Optional(Id),
  ...optionalFields,
});
export type UpdateShiftBody = Static<typeof UpdateShiftBody>;

export const ListShiftsQuery = Type.Object({
  user_id: Id,
  start: Type.Optional(LocalDateTime),
  end: Type.Optional(LocalDateTime),
});

export const ShiftLabel = Type.Object({ id: Type.Integer(), href: Type.String(), label: Type.String() });
export const ShiftQualifier = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  shortcode: Nullable(Type.String()),
  name: Type.String(),
});

export const ShiftResponse = Type.Object({
  id: Type.Integer(),
  assignment_id: Type.Integer(),
  date: Type.String(),
  start: Type.String(),
  end: Type.String(),
  user: UserRef,
  scheduled_by: Nullable(UserRef),
  work_type: Type.Object({
    id: Type.Integer(),
    href: Type.String(),
    name: Type.String(),
    work_code: Nullable(Type.String()),
    subtype_id: Nullable(Type.Integer()),
  }),
  labels: Nullable(Type.Array(ShiftLabel)),
  qualifiers: Nullable(Type.Array(ShiftQualifier)),
  traded_with: Nullable(Type.Integer()),
  from_callback: Nullable(Type.Integer()),
  notes: Nullable(Type.String()),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});
export type ShiftResponse = Static<typeof ShiftResponse>;

export const IdsBody = Type.Array(Id, { maxItems: 100, description: 'a bare JSON array of ids' });
export const LabelParams = Type.Object({ id: PathId, labelId: PathId });
export const QualifierParams = Type.Object({ id: PathId, qualifierId: PathId });
