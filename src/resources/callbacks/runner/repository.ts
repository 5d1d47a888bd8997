import { sameOrg } from '../../../core/db/org-rows.js';
import { transition } from '../../../core/db/locks.js';
import { type Db, withTransaction } from '../../../core/db/transaction.js';

/** The callbacks the runner handles (open, or closed but not yet reported) on lists with a contact window. */
function runnerCallbacks(db: Db) {
  return db
    .selectFrom('callback')
    .innerJoin('callback_list', sameOrg('callback_list.id', 'callback.list_id'))
    .selectAll('callback')
    .select([
      'callback_list.contact_window_minutes',
      'callback_list.contact_at_once',
      'callback_list.name as list_name',
      'callback_list.notify_group_id',
    ])
    .where('callback.runner_closed_at', 'is', null)
    .where('callback_list.contact_window_minutes', 'is not', null);
}

/** Callbacks the runner still has to handle, due at `now` and held by no runner. */
export function callbacksForRunner(db: Db, now: string, limit: number) {
  return runnerCallbacks(db)
    .where('callback.scheduled_to', '<=', now)
    .where((eb) => eb.or([eb('callback.lease_until', 'is', null), eb('callback.lease_until', '<=', now)]))
    .orderBy('callback.id')
    .limit(limit)
    .execute();
}

/** One callback as the runner sees it now; undefined once another runner has closed it. */
export function findRunnerCallback(db: Db, orgId: number, id: number) {
  return runnerCallbacks(db)
    .where('callback.organization_id', '=', orgId)
    .where('callback.id', '=', id)
    .executeTakeFirst();
}
export type RunnerCallbackRow = Awaited<ReturnType<typeof callbacksForRunner>>[number];

/** The runner handled the callback's end (its links withdrawn, the admin told); in a transaction. */
export async function markRunnerClosed(trx: Db, orgId: number, id: number, now: string): Promise<void> {
  await transition(trx, { table: 'callback', orgId, id, model: 'Callback' }, () => ({ runner_closed_at: now }));
}

/** The runner told that the callback reached the end of its list: true for the first telling only. */
export function markListEnded(db: Db, orgId: number, id: number, now: string): Promise<boolean> {
  return withTransaction(db, async (trx) => {
    let first = false;
    await transition(trx, { table: 'callback', orgId, id, model: 'Callback' }, (row) => {
      first = row.list_ended_at === null;
      return { list_ended_at: row.list_ended_at ?? now };
    });
    return first;
  });
}
