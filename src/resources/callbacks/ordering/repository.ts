import type { Db } from '../../../core/db/transaction.js';

/** When each user was last contacted (an opportunity used) for a callback of the list: rotating order. */
export async function lastContacts(db: Db, orgId: number, listId: number): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('callback_user')
    .innerJoin('callback', (join) =>
      join
        .onRef('callback.id', '=', 'callback_user.callback_id')
        .onRef('callback.organization_id', '=', 'callback_user.organization_id'),
    )
    .select(['callback_user.user_id', (eb) => eb.fn.max('callback_user.contact_time').as('last_contact')])
    .where('callback_user.organization_id', '=', orgId)
    .where('callback.list_id', '=', listId)
    .where('callback_user.uses_opportunity', '=', 1)
    .groupBy('callback_user.user_id')
    .execute();
  return new Map(rows.filter((r) => r.last_contact !== null).map((r) => [r.user_id, String(r.last_contact)]));
}

/** Accepted callback hours (spans) of the users since a date: hours-based order and unplaced work. */
export function acceptedCallbackSpans(
  db: Db,
  orgId: number,
  filter: { userIds: number[]; start: string; end: string; listId?: number; unplacedOnly?: boolean },
) {
  if (filter.userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('callback_user')
    .innerJoin('callback', (join) =>
      join
        .onRef('callback.id', '=', 'callback_user.callback_id')
        .onRef('callback.organization_id', '=', 'callback_user.organization_id'),
    )
    .select([
      'callback_user.user_id',
      'callback.start',
      'callback.end',
      'callback_user.start_time',
      'callback_user.end_time',
    ])
    .where('callback_user.organization_id', '=', orgId)
    .where('callback_user.status', '=', 'accepted')
    .where('callback_user.user_id', 'in', filter.userIds)
    .where('callback.end', '>', filter.start)
    .where('callback.start', '<', filter.end)
    .$if(filter.listId !== undefined, (qb) => qb.where('callback.list_id', '=', filter.listId!))
    .$if(filter.unplacedOnly === true, (qb) => qb.where('callback.assignment_id', 'is', null))
    .execute();
}
