import { Type, type Static } from '@sinclair/typebox';
import { Id, ShortText, UserRef } from '../../core/schemas.js';

export const CertificationResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  cert_id: Type.String(),
  created_by: Type.Union([UserRef, Type.Null()]),
});
export type CertificationResponse = Static<typeof CertificationResponse>;

export const CreateCertificationBody = Type.Object({
  name: ShortText({ minLength: 1 }),
  cert_id: ShortText({ minLength: 1, maxLength: 64 }),
  created_by: Id,
});
export type CreateCertificationBody = Static<typeof CreateCertificationBody>;

export const ChangeCertificationBody = Type.Object({
  name: Type.Optional(ShortText({ minLength: 1 })),
  cert_id: Type.Optional(ShortText({ minLength: 1, maxLength: 64 })),
});
export type ChangeCertificationBody = Static<typeof ChangeCertificationBody>;
