import type { Generated, Selectable } from 'kysely';

export interface TimeOffTypeTable {
  id: Generated<number>;
  organization_id: number;
  label: string;
  work_code: string | null;
  primary_color: string;
  secondary_color: string;
  force_include: number;
  forward: number;
  /** hours needed between the request and the start of the time off */
  required_buffer: number;
  /** entries per user and calendar year; 0 = unlimited */
  instance_limit: number;
  /** extension: approving time off of this type may take the user's bank below zero */
  allow_negative: number;
  /** extension: with allow_negative, how far below zero the bank may go; null = no bound */
  overdraft_hours: Generated<number | null>;
  /** extension: hours charged per day to a user with no scheduled work (office staff) */
  default_day_hours: Generated<number>;
  /** extension: hours of this type count as hours worked for overtime */
  counts_as_worked: Generated<number>;
  /** extension: no callback offers within this many hours of approved time off of this type */
  callback_exclusion_hours: Generated<number>;
  /** extension: 1 on the one type "Mark sick" records (at most one live type of the organization) */
  sick_leave: Generated<number>;
  /** extension: those who may not see the type see its time off as `public_name` (docs/time-off.md#masked-types) */
  masked: Generated<number>;
  /** extension: what a masked type shows as; null = "Off" */
  public_name: Generated<string | null>;
  deleted_at: string | null;
  created_at: string;
}

export type TimeOffTypeRow = Selectable<TimeOffTypeTable>;

declare module '../../core/db/types.js' {
  interface Database {
    time_off_type: TimeOffTypeTable;
  }
}
