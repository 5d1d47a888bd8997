import { orgColumns } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import type { UserCallbackSettingRow } from './table.js';

export type CallbackSettings = Pick<
  UserCallbackSettingRow,
  'contact_method' | 'do_not_disturb_start' | 'do_not_disturb_end'
>;

export const DEFAULT_SETTINGS: CallbackSettings = {
  contact_method: null,
  do_not_disturb_start: null,
  do_not_disturb_end: null,
};

/** The user's callback contact settings, the defaults when none were saved. */
export async function findCallbackSettings(db: Db, orgId: number, userId: number): Promise<CallbackSettings> {
  const row = await orgColumns(db, 'user_callback_setting', orgId, [
    'contact_method',
    'do_not_disturb_start',
    'do_not_disturb_end',
  ])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ?? DEFAULT_SETTINGS;
}

/** Replaces the user's settings (one row per user). */
export async function saveCallbackSettings(
  db: Db,
  orgId: number,
  userId: number,
  settings: CallbackSettings,
  now: string,
): Promise<void> {
  const updated = await db
    .updateTable('user_callback_setting')
    .set({ ...settings, updated_at: now })
    .where('organization_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    await db
      .insertInto('user_callback_setting')
      .values({ organization_id: orgId, user_id: userId, ...settings, updated_at: now })
      .execute();
}
