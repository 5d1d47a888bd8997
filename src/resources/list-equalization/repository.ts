import { sameOrg } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';

/** The people of the list's callbacks starting in [start, end): their answers and the callback's span. */
export function callbackPeopleOf(db: Db, orgId: number, listId: number, period: { start: string; end: string }) {
  return db
    .selectFrom('callback_user as cu')
    .innerJoin('callback as c', sameOrg('c.id', 'cu.callback_id'))
    .select([
      'cu.user_id',
      'cu.status',
      'cu.contact_time',
      'cu.start_time',
      'cu.end_time',
      'c.id as callback_id',
      'c.start',
      'c.end',
    ])
    .where('cu.organization_id', '=', orgId)
    .where('c.list_id', '=', listId)
    .where('c.start', '>=', period.start)
    .where('c.start', '<', period.end)
    .execute();
}

/** The shifts the list's callbacks starting in [start, end) placed, as they stand now. */
export function callbackShiftsOf(db: Db, orgId: number, listId: number, period: { start: string; end: string }) {
  return db
    .selectFrom('shift as s')
    .innerJoin('callback as c', sameOrg('c.id', 's.from_callback'))
    .select(['s.user_id', 's.start', 's.end'])
    .where('s.organization_id', '=', orgId)
    .where('c.list_id', '=', listId)
    .where('c.start', '>=', period.start)
    .where('c.start', '<', period.end)
    .execute();
}
