import { Type, type Static } from '@sinclair/typebox';
import { Id, ShortText, SuccessWith, UserRef } from '../../core/schemas.js';

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

export const ExpiringQuery = Type.Object({
  days: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 366, description: 'how many days ahead to look (default 60)' }),
  ),
});

const CostItem = Type.Object({
  assignment: Type.Object({ id: Type.Integer(), name: Type.String() }),
  date: Type.String(),
  start: Type.String(),
  end: Type.String(),
  qualifier: Type.Object(
    { id: Type.Integer(), shortcode: Type.String(), needed: Type.Integer(), have: Type.Integer() },
    { description: 'the qualifier minimum of the occurrence and how many hold it once the certification is lost' },
  ),
});

export const ExpiringResponse = Type.Object({
  as_of: Type.String({ description: "today's date in the organization's zone" }),
  days: Type.Integer(),
  data: Type.Array(
    Type.Object({
      user: UserRef,
      user_certification_id: Type.Integer({ description: "the record's id (GET /users/{user_id}/certifications)" }),
      certification: Type.Object({ id: Type.Integer(), name: Type.String(), cert_id: Type.String() }),
      expires_on: Type.String({ description: 'the last day it is valid' }),
      lost_on: Type.String({ description: 'the first day without it' }),
      days_left: Type.Integer(),
      qualifier: Type.Union([Type.Object({ id: Type.Integer(), shortcode: Type.String() }), Type.Null()], {
        description: 'the qualifier it grants (its cert_id is the shortcode); null: none',
      }),
      staffing_cost: Type.Array(CostItem, {
        description: 'occurrences in the 28 days after the expiry that the person works and that its loss leaves short',
      }),
    }),
  ),
});
export type ExpiringResponse = Static<typeof ExpiringResponse>;

const NoticeDays = Type.Array(Type.Integer({ minimum: 1, maximum: 366 }), {
  minItems: 1,
  maxItems: 10,
  uniqueItems: true,
  description: 'days before an expiry a notice goes out, each once per certification (default 60, 30, 7)',
});

export const ExpiryNoticesResponse = Type.Object({ days: NoticeDays });
export type ExpiryNoticesResponse = Static<typeof ExpiryNoticesResponse>;
export const ChangeExpiryNoticesBody = Type.Object({ days: Type.Optional(NoticeDays) });
export type ChangeExpiryNoticesBody = Static<typeof ChangeExpiryNoticesBody>;
export const ExpiryNoticesWriteResponse = SuccessWith({ expiry_notices: ExpiryNoticesResponse });
