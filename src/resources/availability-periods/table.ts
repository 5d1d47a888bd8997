import type { Generated, Selectable } from 'kysely';

export interface UnavailabilityReasonTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  deleted_at: string | null;
}

export interface AvailabilityPeriodTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  /** local datetimes */
  start: string;
  end: string;
  /** who entered it: the user themselves when no admin was named */
  admin_id: number;
  notes: string | null;
  unavailability_reason_id: number | null;
  created_at: string;
  deleted_at: string | null;
}

export type AvailabilityPeriodRow = Selectable<AvailabilityPeriodTable>;
export type UnavailabilityReasonRow = Selectable<UnavailabilityReasonTable>;

declare module '../../core/db/types.js' {
  interface Database {
    unavailability_reason: UnavailabilityReasonTable;
    availability_period: AvailabilityPeriodTable;
  }
}
