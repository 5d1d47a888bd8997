import { Type, type Static } from '@sinclair/typebox';
import { Id, SuccessWithId } from '../../core/schemas.js';

export const PartnerUserResponse = Type.Object({
  id: Type.Integer({ description: 'partner user id' }),
  first_name: Type.String(),
  last_name: Type.String(),
  service_user_id: Type.Integer(),
  service_company_id: Type.Integer(),
  partner_customer_id: Type.Integer(),
});
export type PartnerUserResponse = Static<typeof PartnerUserResponse>;

export const CreatePartnerUserBody = Type.Object({
  id: Id,
  service_user_id: Id,
  partner_customer_id: Id,
});
export type CreatePartnerUserBody = Static<typeof CreatePartnerUserBody>;

export const ChangePartnerUserBody = Type.Object({
  service_user_id: Type.Optional(Id),
  partner_customer_id: Type.Optional(Id),
});
export type ChangePartnerUserBody = Static<typeof ChangePartnerUserBody>;

export const PartnerUserWriteResponse = SuccessWithId;
