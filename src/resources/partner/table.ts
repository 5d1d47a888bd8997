import type { Generated, Selectable } from 'kysely';

/** A user of the partner training system mapped onto a user of the organization. */
export interface PartnerUserTable {
  id: Generated<number>;
  organization_id: number;
  partner_user_id: number;
  service_user_id: number;
  partner_customer_id: number;
  created_at: string;
}

export type PartnerUserRow = Selectable<PartnerUserTable>;

declare module '../../core/db/types.js' {
  interface Database {
    partner_user: PartnerUserTable;
  }
}
