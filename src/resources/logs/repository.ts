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
 * does. Fetches one row more than asked to know whether another page follows.
 */
export async function listLogPage(db: Db, q: LogPageQuery) {
  const rows = await db
    .selectFrom('system_log')
    .select(['id', 'created_at', 'description', 'actor_user_id', 'actor_name'])
    .where('organization_id', '=', q.orgId)
    .$if(q.createdAfter !== undefined, (qb) => qb.where('created_at', '>', q.createdAfter!))
    .$if(q.beforeId !== undefined, (qb) => qb.where('id', '<', q.beforeId!))
    .$if(q.sinceId !== undefined, (qb) => qb.where('id', '>', q.sinceId!))
    .orderBy('id', q.sinceId !== undefined ? 'asc' : 'desc')
    .limit(q.limit + 1)
    .execute();
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  if (q.sinceId !== undefined) page.reverse();
  return { rows: page, more };
}

export async function hasLogsBeyond(db: Db, orgId: number, id: number, direction: 'newer' | 'older', createdAfter?: string) {
  const row = await db
    .selectFrom('system_log')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('id', direction === 'newer' ? '>' : '<', id)
    .$if(createdAfter !== undefined, (qb) => qb.where('created_at', '>', createdAfter!))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
