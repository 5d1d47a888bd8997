import type { Generated, Selectable } from 'kysely';

/** A user's opt-in to auto-accepted callback offers and its limits (docs/workflows.md, "Auto-accept"). */
export interface CallbackAutoAcceptTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  enabled: number;
  /** hours of auto-accepted callbacks per period, the one being accepted included */
  max_hours: number;
  period: AutoAcceptPeriod;
  /** JSON array of assignment ids; null: any assignment (and callbacks on none) */
  assignment_ids: string | null;
  /** JSON array of ISO weekdays (1 Monday … 7 Sunday) of the callback's start; null: any day */
  weekdays: string | null;
  updated_at: string;
}

export type AutoAcceptPeriod = 'week' | 'month';
export type CallbackAutoAcceptRow = Selectable<CallbackAutoAcceptTable>;

declare module '../../core/db/types.js' {
  interface Database {
    callback_auto_accept: CallbackAutoAcceptTable;
  }
}
