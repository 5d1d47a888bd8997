import { sameOrg } from '../../../core/db/org-rows.js';
import type { Db } from '../../../core/db/transaction.js';

/**
 * When each user was last contacted (an opportunity used) for a callback of the list (rotating
 * order), and last accepted one (local datetimes). `asOf` (replay): only contacts on callbacks
 * created before that one, up to `before` (its start, to the second), as when it started.
 */
export async function lastContacts(
  db: Db,
  orgId: number,
  listId: number,
  asOf?: { before: string; callbackId: number },
): Promise<Map<number, { offered: string; accepted: string | null }>> {
  const rows = await db
    .selectFrom('callback_user')
    .innerJoin('callback', sameOrg('callback.id', 'callback_user.callback_id'))
    .select((eb) => [
      'callback_user.user_id',
      eb.fn.max('callback_user.contact_time').as('last_contact'),
      eb.fn
        .max(eb.case().when('callback_user.status', '=', 'accepted').then(eb.ref('callback_user.response_time')).end())
        .as('last_accepted'),
    ])
    .where('callback_user.organization_id', '=', orgId)
    .where('callback.list_id', '=', listId)
    .where('callback_user.uses_opportunity', '=', 1)
    .$if(asOf !== undefined, (qb) =>
      qb.where('callback_user.contact_time', '<=', asOf!.before).where('callback.id', '<', asOf!.callbackId),
    )
    .groupBy('callback_user.user_id')
    .execute();
  return new Map(
    rows
      .filter((r) => r.last_contact !== null)
      .map((r) => [
        r.user_id,
        { offered: String(r.last_contact), accepted: r.last_accepted === null ? null : String(r.last_accepted) },
      ]),
  );
}
