import { Type, type Static } from '@sinclair/typebox';
import { PASSWORD_LENGTH } from '../../core/auth/password-rules.js';
import {
  DateStr,
  Id,
  IdName,
  Nullable,
  NullableInput,
  ShortText,
  SuccessWith,
  NullableString,
} from '../../core/schemas.js';

export const Digits = Type.String({ pattern: '^[0-9]{1,20}$', description: 'digits only' });
const PhoneNumbers = Type.Union([Type.Array(Digits, { maxItems: 10 }), Digits]);
export const Email = Type.String({ format: 'email', maxLength: 255 });
const Emails = Type.Union([Type.Array(Email, { maxItems: 10 }), Email]);
/** `mail` of a new user: one address at least. */
const RequiredEmails = Type.Union([Type.Array(Email, { minItems: 1, maxItems: 10 }), Email]);
/** 12 to 200 characters; rules.ts also refuses the most common passwords (core/auth/password-rules.ts). */
const Password = Type.String({ minLength: PASSWORD_LENGTH.min, maxLength: PASSWORD_LENGTH.max });
const RefById = NullableInput(Type.Object({ id: Id }));

/** The fields a user may be created or changed with, each optional, in both bodies' order. */
const optionalUserFields = {
  employee_id: Type.Optional(NullableInput(ShortText())),
  phone_numbers: Type.Optional(PhoneNumbers),
  phone: Type.Optional(Digits),
  role: Type.Optional(NullableInput(ShortText())),
  date_of_hire: Type.Optional(NullableInput(DateStr)),
  date_of_birth: Type.Optional(NullableInput(DateStr)),
  accrual_start_date: Type.Optional(NullableInput(DateStr)),
  avatar_url: Type.Optional(NullableInput(Type.String({ format: 'uri', maxLength: 2048 }))),
};

export const CreateUserBody = Type.Object({
  username: ShortText({ minLength: 1 }),
  first_name: ShortText({ minLength: 1 }),
  last_name: ShortText({ minLength: 1 }),
  mail: RequiredEmails,
  password: Password,
  ...optionalUserFields,
});
export type CreateUserBody = Static<typeof CreateUserBody>;

export const FieldValueInput = Type.Object({ id: Id, value: NullableInput(Type.String({ maxLength: 1000 })) });

export const UpdateUserBody = Type.Object({
  username: Type.Optional(ShortText({ minLength: 1 })),
  first_name: Type.Optional(ShortText({ minLength: 1 })),
  last_name: Type.Optional(ShortText({ minLength: 1 })),
  mail: Type.Optional(Emails),
  emails: Type.Optional(Type.Array(Email, { maxItems: 10 })),
  password: Type.Optional(Password),
  ...optionalUserFields,
  accrual_profile: Type.Optional(RefById),
  accrual_track: Type.Optional(RefById),
  active: Type.Optional(Type.Boolean({ description: 'extension: false deactivates the user' })),
  fields: Type.Optional(
    Type.Array(FieldValueInput, { maxItems: 100, description: 'extension: values of extra fields' }),
  ),
});
export type UpdateUserBody = Static<typeof UpdateUserBody>;

const userProperties = {
  user_id: Type.Integer(),
  employee_id: NullableString(),
  username: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  full_name: Type.String(),
  role: NullableString(),
  avatar_url: NullableString(),
  date_of_hire: NullableString(),
  date_of_birth: NullableString(),
  accrual_start_date: NullableString(),
  emails: Type.Array(Type.String()),
  phone_numbers: Type.Array(Type.String()),
};
const accrualRefs = {
  accrual_track: Nullable(IdName),
  accrual_profile: Nullable(IdName),
};
export const UserField = Type.Object({ id: Type.Integer(), label: Type.String(), value: NullableString() });

export const UserResponse = Type.Object({ ...userProperties, ...accrualRefs });
export type UserResponse = Static<typeof UserResponse>;
export const UserWithFieldsResponse = Type.Object({ ...userProperties, fields: Type.Array(UserField), ...accrualRefs });
export type UserWithFieldsResponse = Static<typeof UserWithFieldsResponse>;

export const UserWriteResponse = SuccessWith({
  id: Type.Integer(),
  ...userProperties,
  fields: Type.Array(UserField),
  ...accrualRefs,
});

export const ListUsersQuery = Type.Object({ employee_id: Type.Optional(ShortText()) });

export const UserFieldBody = Type.Object({
  label: ShortText({ minLength: 1 }),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});
export const UserFieldDefinition = Type.Object({ id: Type.Integer(), label: Type.String(), position: Type.Integer() });

export const RosterQuery = Type.Object({
  dry_run: Type.Optional(Type.Boolean({ description: 'report what would change and write nothing' })),
});
export const RosterResponse = Type.Object({
  dry_run: Type.Boolean(),
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  rows: Type.Array(
    Type.Object({
      line: Type.Integer(),
      action: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('unchanged')]),
      user_id: Nullable(Type.Integer({ description: 'null for a user a dry run would create' })),
      username: Type.String(),
      changes: Type.Array(Type.String(), { description: 'the fields that change' }),
    }),
  ),
});
