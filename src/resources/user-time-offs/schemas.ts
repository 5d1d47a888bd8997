import { Type, type Static } from '@sinclair/typebox';
import { Id, LocalDateTime, PathId } from '../../core/schemas.js';
import { Rrule, UserNote } from '../time-offs/schemas.js';

const AdminIds = Type.Array(Id, { maxItems: 50, description: 'admins the request is addressed to (optional)' });

export const UserTimeOffParams = Type.Object({ user_id: PathId, id: PathId });
export type UserTimeOffParams = Static<typeof UserTimeOffParams>;

export const UserTimeOffsQuery = Type.Object({
  start: Type.Optional(LocalDateTime),
  end: Type.Optional(LocalDateTime),
  status: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 2,
      description: 'extension: only this status (2 = denied); default pending and approved',
    }),
  ),
});
export type UserTimeOffsQuery = Static<typeof UserTimeOffsQuery>;

export const RequestTimeOffBody = Type.Object({
  time_off_type_id: Id,
  start_date: LocalDateTime,
  end_date: LocalDateTime,
  user_note: Type.Optional(UserNote),
  admin_ids: Type.Optional(AdminIds),
  rrule: Type.Optional(Rrule),
});
export type RequestTimeOffBody = Static<typeof RequestTimeOffBody>;

export const EditRequestBody = Type.Object({
  time_off_type_id: Type.Optional(Id),
  start_date: Type.Optional(LocalDateTime),
  end_date: Type.Optional(LocalDateTime),
  user_note: Type.Optional(UserNote),
  admin_ids: Type.Optional(AdminIds),
  rrule: Type.Optional(Rrule),
});
export type EditRequestBody = Static<typeof EditRequestBody>;
