import { Type, type Static } from '@sinclair/typebox';
import { Color, Id, Nullable, NullableInput, ShortText, SuccessWith, NullableString } from '../../core/schemas.js';

/** A qualifier as every list shows it (its own, an assignment's qualifiers needed). */
export const qualifierFields = {
  id: Type.Integer(),
  name: Type.String(),
  shortcode: NullableString(),
  color: NullableString(),
  text_color: NullableString(),
};

export const QualifierListItem = Type.Object({
  ...qualifierFields,
  modified_by: Nullable(Type.Integer()),
  modified_on: NullableString(),
  partner_credential_id: Nullable(Type.Integer()),
});
export type QualifierListItem = Static<typeof QualifierListItem>;

export const QualifierSingle = Type.Object({
  ...qualifierFields,
  title_id: Nullable(Type.Integer()),
  created_by: Nullable(Type.Integer()),
  created_on: Type.String(),
  modified_by: Nullable(Type.Integer()),
  modified_on: NullableString(),
  deleted_at: NullableString(),
  deleted_by: Nullable(Type.Integer()),
  partner_credential_id: Nullable(Type.Integer()),
});
export type QualifierSingle = Static<typeof QualifierSingle>;

export const QualifierUser = Type.Object({ id: Type.Integer(), name: Type.String(), ranking: Type.Integer() });

export const CreateQualifierBody = Type.Object({
  name: ShortText({ minLength: 1 }),
  shortcode: Type.Optional(NullableInput(ShortText({ maxLength: 32 }))),
  partner_credential_id: Type.Optional(NullableInput(Id)),
  color: Type.Optional(NullableInput(Color)),
  text_color: Type.Optional(NullableInput(Color)),
  title_id: Type.Optional(NullableInput(Id)),
  admin_id: Type.Optional(Id),
});
export type CreateQualifierBody = Static<typeof CreateQualifierBody>;

/** A truthy `undelete` (1, true, "1", "true") restores; anything else is refused. */
export const RestoreQualifierBody = Type.Object({
  undelete: Type.Union([
    Type.Boolean(),
    Type.Integer({ minimum: -2_147_483_648, maximum: 2_147_483_647 }),
    Type.String({ maxLength: 10 }),
  ]),
  admin_id: Type.Optional(Id),
});
export type RestoreQualifierBody = Static<typeof RestoreQualifierBody>;

export const ChangeQualifierBody = Type.Partial(Type.Omit(CreateQualifierBody, ['admin_id']));
export const ChangeQualifierWithAdmin = Type.Composite([
  ChangeQualifierBody,
  Type.Object({ admin_id: Type.Optional(Id) }),
]);
export type ChangeQualifierBody = Static<typeof ChangeQualifierWithAdmin>;

export const RestoreResponse = SuccessWith({
  qualifier: Type.Object({ id: Type.Integer(), name: Type.String(), shortcode: NullableString() }),
});

export const InsertedResponse = Type.Object({ inserted: Type.Integer() });

export const AdminQuery = Type.Object({ admin_id: Type.Optional(Id) });

/** A shift's qualifier as GET /schedule shows it (day.assignments[].shifts[].qualifiers). */
export const ScheduleQualifier = Type.Object({
  id: Type.Integer(),
  href: Type.String(),
  shortcode: Nullable(Type.String()),
  name: Type.String(),
  color: Nullable(Type.String()),
  text_color: Nullable(Type.String()),
});
