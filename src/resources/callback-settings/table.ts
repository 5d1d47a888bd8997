import type { Generated, Selectable } from 'kysely';

/** A user's callback contact settings (docs/workflows.md, "Channels"); no row: the defaults. */
export interface UserCallbackSettingTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  /** the preferred channel: `Mobile App`, `Text (SMS)` or `Email`; null: the runner's default order */
  contact_method: string | null;
  /** daily do-not-disturb hours, `HH:MM` in the organization's zone; both null or both set */
  do_not_disturb_start: string | null;
  do_not_disturb_end: string | null;
  updated_at: string;
}

export type UserCallbackSettingRow = Selectable<UserCallbackSettingTable>;

declare module '../../core/db/types.js' {
  interface Database {
    user_callback_setting: UserCallbackSettingTable;
  }
}
