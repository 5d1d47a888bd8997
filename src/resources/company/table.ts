import type { Generated, Selectable } from 'kysely';

/** Contact details of the organization; name and timezone live on `organization`. */
export interface CompanyProfileTable {
  id: Generated<number>;
  organization_id: number;
  address: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  zip: string | null;
  phone: string | null;
  email: string | null;
  website: string | null;
  updated_at: string;
}

export type CompanyProfileRow = Selectable<CompanyProfileTable>;

declare module '../../core/db/types.js' {
  interface Database {
    company_profile: CompanyProfileTable;
  }
}
