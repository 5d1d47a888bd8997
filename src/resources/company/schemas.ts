import { Type, type Static } from '@sinclair/typebox';
import { Nullable, NullableInput, ShortText, SuccessWith } from '../../core/schemas.js';

export const CompanyResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  timezone: Type.String(),
  address: Nullable(Type.String()),
  city: Nullable(Type.String()),
  state: Nullable(Type.String()),
  country: Nullable(Type.String()),
  zip: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  website: Nullable(Type.String()),
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
