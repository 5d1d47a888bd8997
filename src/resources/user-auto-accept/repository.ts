import type { Insertable } from 'kysely';
import { deleteOrgRows, orgRows, sameOrg } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import type { CallbackAutoAcceptRow, CallbackAutoAcceptTable } from './table.js';

export function findAutoAccept(db: Db, orgId: number, userId: number): Promise<CallbackAutoAcceptRow | undefined> {
  return orgRows(db, 'callback_auto_accept', orgId).where('user_id', '=', userId).executeTakeFirst();
}

export async function replaceAutoAccept(db: Db, values: Insertable<CallbackAutoAcceptTable>): Promise<void> {
  await deleteOrgRows(db, 'callback_auto_accept', values.organization_id)
    .where('user_id', '=', values.user_id)
    .execute();
  await db.insertInto('callback_auto_accept').values(values).execute();
}

/** The spans (local datetimes) of the callbacks the user auto-accepted that start within [from, to). */
export function autoAcceptedSpans(
  db: Db,
  orgId: number,
  userId: number,
  from: string,
  to: string,
): Promise<Array<{ start: string; end: string; start_time: string | null; end_time: string | null }>> {
  return db
    .selectFrom('callback_user as cu')
    .innerJoin('callback as c', sameOrg('c.id', 'cu.callback_id'))
    .select(['c.start', 'c.end', 'cu.start_time', 'cu.end_time'])
    .where('cu.organization_id', '=', orgId)
    .where('cu.user_id', '=', userId)
    .where('cu.status', '=', 'accepted')
    .where('cu.auto_accepted', '=', 1)
    .where('c.start', '>=', from)
    .where('c.start', '<', to)
    .execute();
}
