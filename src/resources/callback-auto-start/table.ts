import type { Generated, Selectable } from 'kysely';

/** An organization's "start a callback when a vacancy appears within N days" (docs/workflows.md, "Auto-start"). */
export interface CallbackAutoStartTable {
  id: Generated<number>;
  organization_id: number;
  enabled: number;
  within_days: number;
  /** the admin the started callbacks name as initiating (told how they end) */
  initiated_by: number;
  /** UTC instant until which one process owns the organization's auto-start pass (core/db/lease.ts) */
  lease_until: string | null;
  updated_at: string;
}

/** The callback list a vacancy on the assignment is offered on. */
export interface CallbackAutoStartListTable {
  id: Generated<number>;
  organization_id: number;
  assignment_id: number;
  list_id: number;
}

/** A vacancy (assignment occurrence) a callback was started for: at most one row, so one callback, per vacancy. */
export interface CallbackAutoStartedTable {
  id: Generated<number>;
  organization_id: number;
  assignment_id: number;
  date: string;
  callback_id: number;
  created_at: string;
}

export type CallbackAutoStartRow = Selectable<CallbackAutoStartTable>;

declare module '../../core/db/types.js' {
  interface Database {
    callback_auto_start: CallbackAutoStartTable;
    callback_auto_start_list: CallbackAutoStartListTable;
    callback_auto_started: CallbackAutoStartedTable;
  }
}
