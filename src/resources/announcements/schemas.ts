import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable, NullableInput, ShortText, UserRef, PageLimit, NullableString } from '../../core/schemas.js';

export const MAX_PAGE_SIZE = 200;

export const AnnouncementBody = Type.Object({
  body: Type.String({ minLength: 1, maxLength: 65_535, description: 'HTML; sanitized on input' }),
  title: Type.Optional(NullableInput(ShortText())),
  admin_id: Type.Optional(Id),
  user_id: Type.Optional(Id),
});
export type AnnouncementBody = Static<typeof AnnouncementBody>;

export const AnnouncementQuery = Type.Object({
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'entries to skip, default 0' }),
  ),
  limit: Type.Optional(PageLimit(50, MAX_PAGE_SIZE)),
});
export type AnnouncementQuery = Static<typeof AnnouncementQuery>;

export const AnnouncementResponse = Type.Object({
  id: Type.Integer(),
  company_id: Type.Integer(),
  title: NullableString(),
  body: Type.String(),
  first_name: NullableString(),
  last_name: NullableString(),
  user: Nullable(UserRef),
});
export type AnnouncementResponse = Static<typeof AnnouncementResponse>;

export const AnnouncementPage = Type.Object({
  data: Type.Array(AnnouncementResponse),
  pagination: Type.Object({ prev: NullableString(), next: NullableString() }),
});
