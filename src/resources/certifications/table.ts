import type { Generated, Selectable } from 'kysely';

export interface CertificationTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  cert_id: string;
  created_by: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** A certification held by a user, with its optional scanned document. */
export interface UserCertificationTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  certification_id: number;
  number: string | null;
  issued_on: string | null;
  expires_on: string | null;
  notes: string | null;
  /** Generated file name under `<dataDir>/certifications/` (never the client's name). */
  file_storage_name: string | null;
  file_content_type: string | null;
  file_size: number | null;
  file_uploaded_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A certification expiry notice sent (migration 1681): once per held certification, expiry date and threshold. */
export interface CertificationNoticeTable {
  id: Generated<number>;
  organization_id: number;
  user_certification_id: number;
  user_id: number;
  expires_on: string;
  threshold_days: number;
  sent_at: string;
}

export type CertificationRow = Selectable<CertificationTable>;
export type UserCertificationRow = Selectable<UserCertificationTable>;

declare module '../../core/db/types.js' {
  interface Database {
    certification: CertificationTable;
    user_certification: UserCertificationTable;
    certification_notice: CertificationNoticeTable;
  }
}

/** The organization's expiry notice thresholds (migration 1790): a JSON array of days; null = NOTICE_DAYS. */
declare module '../../core/db/types.js' {
  interface OrganizationTable {
    expiry_notice_days: string | null;
  }
}
