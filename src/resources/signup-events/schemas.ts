import { OverrideReason } from '../fatigue-rules/schemas.js';
import { Type, type Static } from '@sinclair/typebox';
import {
  Id,
  LocalDateTime,
  LongText,
  Nullable,
  NullableInput,
  PathId,
  ShortText,
  UserRef,
  NullableString,
} from '../../core/schemas.js';

export const SIGNUP_STATUSES = ['active', 'partially_filled', 'filled', 'not_filled'] as const;
export type OpenStatus = (typeof SIGNUP_STATUSES)[number];
export type SignupStatus = OpenStatus | 'deleted';

export const SignupEventBody = Type.Object({
  admin_id: Id,
  title: ShortText({ minLength: 1 }),
  start: LocalDateTime,
  end: LocalDateTime,
  employees_needed: Type.Integer({ minimum: 1, maximum: 100_000 }),
  work_type_id: Id,
  work_subtype_id: Type.Optional(NullableInput(Id)),
  description: Type.Optional(NullableInput(LongText({ description: 'HTML; sanitized' }))),
});
export type SignupEventBody = Static<typeof SignupEventBody>;

/** PUT's body: every field, and an admin's reason to move a signed-up person over a fatigue rule. */
export const ReplaceSignupEventBody = Type.Object({ ...SignupEventBody.properties, override_reason: OverrideReason });
export type ReplaceSignupEventBody = Static<typeof ReplaceSignupEventBody>;

const Flag = Type.String({ maxLength: 10, description: 'boolean: 1, true, yes or on (0/false ignore the filter)' });
export const SignupEventListQuery = Type.Object({
  deleted: Type.Optional(Flag),
  archived: Type.Optional(Flag),
  status: Type.Optional(Type.Union(SIGNUP_STATUSES.map((s) => Type.Literal(s)))),
  start: Type.Optional(LocalDateTime),
  end: Type.Optional(LocalDateTime),
});
export type SignupEventListQuery = Static<typeof SignupEventListQuery>;

export const DeleteSignupEventQuery = Type.Object({
  admin_id: Type.Optional(Id),
});

export const SignupUserBody = Type.Object({ user_id: Id, override_reason: OverrideReason });
export const EventUserParams = Type.Object({ id: PathId, user_id: PathId });

const eventProperties = {
  id: Type.Integer(),
  work_type_id: Type.Integer(),
  work_subtype_id: Nullable(Type.Integer()),
  title: Type.String(),
  start: Type.String(),
  end: Type.String(),
  description: NullableString(),
  created_by: Type.Integer(),
  created_at: Type.String(),
  modified_by: Type.Integer(),
  modified_at: Type.String(),
};
const tail = {
  employees_needed: Type.Integer(),
  status: Type.String({ description: 'active, partially_filled, filled, not_filled or deleted' }),
};

export const SignupEventResponse = Type.Object({ ...eventProperties, ...tail });
export type SignupEventResponse = Static<typeof SignupEventResponse>;
export const SignupEventDetailResponse = Type.Object({
  ...eventProperties,
  deleted_by: Nullable(Type.Integer()),
  deleted_at: NullableString(),
  ...tail,
});
export type SignupEventDetailResponse = Static<typeof SignupEventDetailResponse>;

export const SignupEventUserResponse = Type.Object({
  id: Type.Integer(),
  user: UserRef,
  misc_hour_id: Nullable(Type.Integer()),
});
