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

/**
 * The forced hires (status `forced`) of the list's members starting in [start, end): those ordered
 * by an admin, and those that followed an unfilled callback of this list (not of another list).
 */
export function forcedHiresOf(db: Db, orgId: number, listId: number, period: { start: string; end: string }) {
  return db
    .selectFrom('forced_hire as f')
    .innerJoin('user_callback_list as m', (join) =>
      join
        .onRef('m.organization_id', '=', 'f.organization_id')
        .onRef('m.user_id', '=', 'f.user_id')
        .on('m.list_id', '=', listId),
    )
    .leftJoin('callback as c', sameOrg('c.id', 'f.callback_id'))
    .select(['f.user_id', 'f.start', 'f.end'])
    .where('f.organization_id', '=', orgId)
    .where('f.status', '=', 'forced')
    .where('f.start', '>=', period.start)
    .where('f.start', '<', period.end)
    .where((eb) => eb.or([eb('f.callback_id', 'is', null), eb('c.list_id', '=', listId)]))
    .execute();
}
