import type { Generated, Selectable } from 'kysely';

/** What a breach of an off limit does (docs/contract-rules.md, "Limits on who may be off"). */
export const OFF_LIMIT_ACTIONS = ['warn', 'require_approval', 'refuse'] as const;
export type OffLimitAction = (typeof OFF_LIMIT_ACTIONS)[number];

/** "At most `max_off` off per day", within its scopes (null / empty: not scoped by that). */
export interface OffLimitTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  max_off: number;
  action: OffLimitAction;
  /** the name of the visual cycles marking the platoon's days (case ignored) */
  platoon: string | null;
  assignment_group_id: number | null;
  qualifier_id: number | null;
  /** JSON array of time off type ids; empty: every type */
  time_off_type_ids: string;
  created_at: string;
  updated_at: string;
}

export type OffLimitRow = Selectable<OffLimitTable>;

declare module '../../core/db/types.js' {
  interface Database {
    off_limit: OffLimitTable;
  }
}
