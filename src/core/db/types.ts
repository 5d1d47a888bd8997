import type { Generated } from 'kysely';

/**
 * The database as Kysely sees it. Each resource adds its own tables by module augmentation:
 *
 *   declare module '../../core/db/types.js' {
 *     interface Database { time_off: TimeOffTable }
 *   }
 *
 * Conventions for every table: `id` integer identity, `organization_id` on every tenant table,
 * booleans stored as integers 0/1 (both engines), zone-less datetimes as text
 * `YYYY-MM-DD hh:mm:ss` in the organization's zone, instants as UTC ISO text (`…Z`).
 */
export interface Database {
  organization: OrganizationTable;
  api_credential: ApiCredentialTable;
  access_token: AccessTokenTable;
  system_log: SystemLogTable;
  schedule_change: ScheduleChangeTable;
  schedule_user_change: ScheduleUserChangeTable;
}

export interface OrganizationTable {
  id: Generated<number>;
  name: string;
  timezone: string;
  created_at: string;
  /** PostgreSQL: raised after every successful change request (see src/core/response-cache.ts) */
  revision: Generated<number>;
  /** FLSA 7(k) work period: days (7 to 28), overtime threshold in hours, the local datetime a period starts at */
  work_period_days: Generated<number>;
  work_period_hours: Generated<number>;
  work_period_start: Generated<string>;
  /** Whose hours of work a trade's hours are: `scheduled` (FLSA §7(p)(3), the default) or `worker` */
  trade_hours_count_for: Generated<string>;
  /** What members see of coworkers in GET /users: `work_contact` or `all` (src/resources/member-view). */
  member_user_view: Generated<string>;
}

/**
 * SQLite: writes to the tables the schedule's engine reads, counted per organization by migration
 * 1100's triggers (src/scheduling/cache.ts). Empty on PostgreSQL.
 */
export interface ScheduleChangeTable {
  organization_id: number;
  changes: number;
}

/**
 * SQLite: the users whose shifts or time off were written, in order (migration 1120's triggers keep
 * the latest rows); the schedule's computed days are patched for them. Empty on PostgreSQL.
 */
export interface ScheduleUserChangeTable {
  seq: Generated<number>;
  organization_id: number;
  user_id: number;
}

export interface ApiCredentialTable {
  id: Generated<number>;
  organization_id: number;
  client_id: string;
  secret_hash: string;
  name: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface AccessTokenTable {
  id: Generated<number>;
  organization_id: number;
  credential_id: number;
  token_hash: string;
  /** unix seconds */
  expires_at: number;
  created_at: string;
}

export interface SystemLogTable {
  id: Generated<number>;
  organization_id: number;
  created_at: string;
  action: string;
  entity_type: string | null;
  entity_id: string | null;
  description: string;
  actor_user_id: number | null;
  actor_name: string;
  client_id: string | null;
  /** JSON text {before, after} */
  changes: string | null;
  /** The hash chain (src/core/log-chain.ts): the entry before's hash, and this entry's. */
  prev_hash: string | null;
  hash: string | null;
}
