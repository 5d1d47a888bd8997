import type { Generated, Selectable } from 'kysely';

export const LIST_ORDERINGS = ['rotating', 'hours', 'seniority'] as const;
export type ListOrdering = (typeof LIST_ORDERINGS)[number];

export interface CallbackListTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  /** Hour limits; 0 means no limit. */
  max_consecutive_hours: number;
  weekly_limit: number;
  monthly_limit: number;
  yearly_limit: number;
  position: number;
  ordering: ListOrdering;
  /** The callback runner's wait for an answer, in minutes; null: callbacks on the list are answered by hand. */
  contact_window_minutes: number | null;
  /** How many people the runner offers a callback to at the same time. */
  contact_at_once: Generated<number>;
  /** The group told, besides the initiating admin, when a callback on the list ends or runs out of people. */
  notify_group_id: number | null;
  created_at: string;
  deleted_at: string | null;
}

export interface UserCallbackListTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  list_id: number;
  /** The user's place on the list (rotating and seniority orderings). */
  position: number;
}

export type CallbackListRow = Selectable<CallbackListTable>;

declare module '../../core/db/types.js' {
  interface Database {
    callback_list: CallbackListTable;
    user_callback_list: UserCallbackListTable;
  }
}
