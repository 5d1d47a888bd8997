import { Type, type Static } from '@sinclair/typebox';
import { NullableInput, ShortText, SuccessWith, NullableString } from '../../core/schemas.js';

export const CompanyResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  timezone: Type.String(),
  address: NullableString(),
  city: NullableString(),
  state: NullableString(),
  country: NullableString(),
  zip: NullableString(),
  phone: NullableString(),
  email: NullableString(),
  website: NullableString(),
});
export type CompanyResponse = Static<typeof CompanyResponse>;

const Field = (maxLength: number, extra: { format?: string } = {}) =>
  Type.Optional(NullableInput(ShortText({ maxLength, ...extra })));

export const ChangeCompanyBody = Type.Object(
  {
    address: Field(255),
    city: Field(100),
    state: Field(100),
    country: Field(100),
    zip: Field(20),
    phone: Field(40),
    email: Type.Optional(NullableInput(Type.String({ format: 'email', maxLength: 255 }))),
    website: Field(255),
  },
  { additionalProperties: false },
);
export type ChangeCompanyBody = Static<typeof ChangeCompanyBody>;

export const CompanyWriteResponse = SuccessWith({
  company: CompanyResponse,
});
