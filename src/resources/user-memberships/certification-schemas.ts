import { Type, type Static } from '@sinclair/typebox';
import {
  DateStr,
  Id,
  LongText,
  Nullable,
  NullableInput,
  PathId,
  ShortText,
  SuccessWith,
  NullableString,
} from '../../core/schemas.js';

export const UserCertificationParams = Type.Object({ user_id: PathId, id: PathId });
export type UserCertificationParams = Static<typeof UserCertificationParams>;

export const StoredFile = Type.Object({
  content_type: Type.String(),
  size: Type.Integer(),
  uploaded_at: Type.String({ description: 'iso_datetime' }),
  href: Type.String(),
});

export const UserCertificationResponse = Type.Object({
  id: Type.Integer({ description: 'the certification id' }),
  name: Type.String(),
  cert_id: Type.String(),
  number: NullableString(),
  issued_on: NullableString(),
  expires_on: NullableString(),
  notes: NullableString(),
  file: Nullable(StoredFile),
});
export type UserCertificationResponse = Static<typeof UserCertificationResponse>;

const RecordFields = {
  number: Type.Optional(NullableInput(ShortText({ maxLength: 100 }))),
  issued_on: Type.Optional(NullableInput(DateStr)),
  expires_on: Type.Optional(NullableInput(DateStr)),
  notes: Type.Optional(NullableInput(LongText({ maxLength: 2000 }))),
};

export const AddUserCertificationBody = Type.Object({ id: Id, ...RecordFields });
export type AddUserCertificationBody = Static<typeof AddUserCertificationBody>;

export const ChangeUserCertificationBody = Type.Object(RecordFields);
export type ChangeUserCertificationBody = Static<typeof ChangeUserCertificationBody>;

export const UploadResponse = SuccessWith({
  id: Type.Integer(),
  file: StoredFile,
});
