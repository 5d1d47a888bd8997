import type { Generated, Selectable } from 'kysely';

/** A group's forced list (docs/contract-rules.md, "Forced hire"); one per group. */
export interface ForcedListTable {
  id: Generated<number>;
  organization_id: number;
  group_id: number;
  /** 1: the worker forces someone for an open vacancy of `assignment_ids` whose callback ended unfilled */
  enabled: number;
  /** how close to its start (hours) a vacancy must be for the automatic forced hire */
  start_within_hours: number;
  /** nobody is forced within this many hours after the end of their approved time off */
  time_off_buffer_hours: number;
  /** a tour (unbroken stretch of work) of this many hours or more … */
  long_tour_hours: number;
  /** … keeps its worker from being forced for this many hours after it ends */
  long_tour_buffer_hours: number;
  /** the admin automatic forced hires name (the shift's `scheduled_by`); null: none */
  initiated_by: number | null;
  /** the forced shifts' work type; null: the organization's Overtime type */
  work_type_id: number | null;
  updated_at: string;
}

/** An assignment whose vacancies the group's forced list covers. */
export interface ForcedListAssignmentTable {
  id: Generated<number>;
  organization_id: number;
  group_id: number;
  assignment_id: number;
}

/** When a member of the group was last forced (local datetime); no row: never forced. */
export interface ForcedMemberTable {
  id: Generated<number>;
  organization_id: number;
  group_id: number;
  user_id: number;
  last_forced_at: string;
}

export type ForcedHireStatus = 'forced' | 'nobody eligible';
export type ForcedHireTrigger = 'admin' | 'auto';

/** One forced hire, with the order it went through (`explained`, JSON of ExplainedMember[]). */
export interface ForcedHireTable {
  id: Generated<number>;
  organization_id: number;
  group_id: number;
  assignment_id: number;
  /** the occurrence's date (the shift's `date`) */
  date: string;
  /** local datetimes */
  start: string;
  end: string;
  status: ForcedHireStatus;
  user_id: number | null;
  shift_id: number | null;
  trigger: ForcedHireTrigger;
  /** the admin who ordered it (or the list's `initiated_by` for automatic ones) */
  ordered_by: number | null;
  /** the voluntary callback that ended unfilled (automatic forced hires) */
  callback_id: number | null;
  /** why someone was forced, in the words they are told */
  reason: string;
  notes: string | null;
  explained: string;
  /** the rules in force (JSON: the list's buffers, the zone and fatigue rules) and its SHA-256; null before 1810 */
  rules: string | null;
  rules_hash: string | null;
  /** `assignment@date` for automatic forced hires (unique per organization); null for ordered ones */
  auto_key: string | null;
  /** UTC instant */
  created_at: string;
}

/** A message sent (or not) to tell the person forced (migration 1820), append-only. */
export interface ForcedHireContactTable {
  id: Generated<number>;
  organization_id: number;
  forced_hire_id: number;
  user_id: number;
  /** the channel's method (`Email`, `Text (SMS)` …) */
  channel: string;
  /** UTC instant */
  at: string;
  /** sent, held (SMS text pacing: `sent` follows when it goes out), failed, unavailable */
  result: string;
  /** the provider's message id when it gives one */
  receipt: string | null;
  detail: string | null;
}

export type ForcedListRow = Selectable<ForcedListTable>;
export type ForcedHireContactRow = Selectable<ForcedHireContactTable>;
export type ForcedHireRow = Selectable<ForcedHireTable>;

declare module '../../core/db/types.js' {
  interface Database {
    forced_list: ForcedListTable;
    forced_list_assignment: ForcedListAssignmentTable;
    forced_member: ForcedMemberTable;
    forced_hire: ForcedHireTable;
    forced_hire_contact: ForcedHireContactTable;
  }
}
