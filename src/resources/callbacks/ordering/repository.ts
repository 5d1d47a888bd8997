import { sameOrg } from '../../../core/db/org-rows.js';
import type { Db } from '../../../core/db/transaction.js';

/** When each user was last contacted (an opportunity used) for a callback of the list: rotating order. */
export async function lastContacts(db: Db, orgId: number, listId: number): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('callback_user')
    .innerJoin('callback', sameOrg('callback.id', 'callback_user.callback_id'))
    .select(['callback_user.user_id', (eb) => eb.fn.max('callback_user.contact_time').as('last_contact')])
    .where('callback_user.organization_id', '=', orgId)
    .where('callback.list_id', '=', listId)
    .where('callback_user.uses_opportunity', '=', 1)
    .groupBy('callback_user.user_id')
    .execute();
  return new Map(rows.filter((r) => r.last_contact !== null).map((r) => [r.user_id, String(r.last_contact)]));
}
