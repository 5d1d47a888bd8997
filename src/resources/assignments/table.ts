import type { Generated, Selectable } from 'kysely';

export interface AssignmentTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  position: number;
  /** Date of the first occurrence. */
  date: string;
  /** First occurrence, local datetimes of the organization's zone. */
  start: string;
  end: string;
  positions_to_fill: number;
  is_work_shift: number;
  self_scheduling: number;
  self_scheduling_requires_approval: number;
  service_eligible: number;
  hide_open_slots: number;
  color: string;
  /** JSON text of {address, city, state, country, zip, latitude, longitude} or null. */
  location: string | null;
  /** RFC 5545 RRULE text; null: the assignment does not recur. */
  rrule: string | null;
  until_date: string | null;
  notes: string | null;
  created_by: number | null;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AssignmentQualifierTable {
  id: Generated<number>;
  organization_id: number;
  assignment_id: number;
  qualifier_id: number;
  minimum_staffing: number;
}

/** A group label of the organization's catalog: {id, name, color}. */
export interface AssignmentGroupTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  color: string;
  deleted_at: string | null;
}

export interface AssignmentGroupMemberTable {
  id: Generated<number>;
  organization_id: number;
  assignment_id: number;
  group_id: number;
}

export interface AssignmentAdminTable {
  id: Generated<number>;
  organization_id: number;
  assignment_id: number;
  user_id: number;
}

export interface AssignmentFinalizationTable {
  id: Generated<number>;
  organization_id: number;
  assignment_id: number;
  date: string;
  admin_id: number;
  created_at: string;
}

export type AssignmentRow = Selectable<AssignmentTable>;
export type AssignmentGroupRow = Selectable<AssignmentGroupTable>;

declare module '../../core/db/types.js' {
  interface Database {
    assignment: AssignmentTable;
    assignment_qualifier: AssignmentQualifierTable;
    assignment_group: AssignmentGroupTable;
    assignment_group_member: AssignmentGroupMemberTable;
    assignment_admin: AssignmentAdminTable;
    assignment_finalization: AssignmentFinalizationTable;
  }
}
