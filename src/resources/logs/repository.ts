import type { Db } from '../../core/db/transaction.js';

export interface LogPageQuery {
  orgId: number;
  /** UTC ISO text: only entries created after it */
  createdAfter?: string;
  /** keyset: entries older than this id (next pages) */
  beforeId?: number;
  /** keyset: entries newer than this id (previous pages) */
  sinceId?: number;
  limit: number;
}

/**
 * One page of the log, newest first, by keyset on the id: a page 2,000 deep costs what the first
 * does. One statement: it fetches one row more than asked (another page follows) and, for a page
 * after a `before_id` or `since_id`, whether entries lie beyond that id on the other side (the
 * page's other link): nothing lies between the key and the page, so that is the same question as
 * "beyond the page's edge".
 */
export async function listLogPage(db: Db, q: LogPageQuery) {
  const key = q.sinceId ?? q.beforeId;
  const direction = q.sinceId !== undefined ? 'since' : q.beforeId !== undefined ? 'before' : 'none';
  const rows = await buildPageQuery(
    db,
    direction,
    q.createdAfter !== undefined,
    q.orgId,
    key ?? 0,
    q.createdAfter ?? '',
    q.limit + 1,
  ).execute();
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  if (q.sinceId !== undefined) page.reverse();
  const beyondKey = rows.length > 0 && Boolean(rows[0]!.beyond_key);
  return { rows: page, more, beyondKey };
}

type Direction = 'none' | 'before' | 'since';

function buildPageQuery(
  db: Db,
  direction: Direction,
  filtered: boolean,
  orgId: number,
  key: number,
  createdAfter: string,
  limit: number,
) {
  return db
    .selectFrom('system_log')
    .select(['id', 'created_at', 'description', 'actor_user_id', 'actor_name'])
    .select((eb) =>
      direction === 'none'
        ? eb.val(0).as('beyond_key')
        : eb
            .exists(
              eb
                .selectFrom('system_log as beyond')
                .select('beyond.id')
                .where('beyond.organization_id', '=', orgId)
                .where('beyond.id', direction === 'since' ? '<=' : '>=', key)
                .$if(filtered, (inner) => inner.where('beyond.created_at', '>', createdAfter)),
            )
            .as('beyond_key'),
    )
    .where('organization_id', '=', orgId)
    .$if(filtered, (qb) => qb.where('created_at', '>', createdAfter))
    .$if(direction === 'before', (qb) => qb.where('id', '<', key))
    .$if(direction === 'since', (qb) => qb.where('id', '>', key))
    .orderBy('id', direction === 'since' ? 'asc' : 'desc')
    .limit(limit);
}
