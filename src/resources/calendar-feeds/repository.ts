import type { Insertable } from 'kysely';
import { orgRows, sameOrg } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import type { CalendarFeedRow, CalendarFeedTable } from './table.js';

export async function findFeedOrThrow(db: Db, orgId: number, id: number): Promise<CalendarFeedRow> {
  return orgRows(db, 'calendar_feed', orgId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow(() => notFound('CalendarFeed'));
}

export function listFeeds(
  db: Db,
  orgId: number,
  filter: { userId?: number; assignmentId?: number },
): Promise<CalendarFeedRow[]> {
  return orgRows(db, 'calendar_feed', orgId)
    .$if(filter.userId !== undefined, (qb) => qb.where('user_id', '=', filter.userId!))
    .$if(filter.assignmentId !== undefined, (qb) => qb.where('assignment_id', '=', filter.assignmentId!))
    .orderBy('id')
    .execute();
}

export async function insertFeed(db: Db, values: Insertable<CalendarFeedTable>): Promise<number> {
  const { id } = await db.insertInto('calendar_feed').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function markRevoked(db: Db, orgId: number, id: number, revokedAt: string): Promise<void> {
  await db
    .updateTable('calendar_feed')
    .set({ revoked_at: revokedAt })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

/**
 * The active feed whose token hashes to tokenHash, with its organization's name and zone. The
 * public feed route has no tenant yet: the secret token is what selects the organization. A feed
 * is active while it is not revoked and its subject (the user or the assignment, of the feed's own
 * organization) is not deleted: deleting the subject ends the feed as revoking it does.
 */
export function findActiveFeedByTokenHash(db: Db, tokenHash: string) {
  return db
    .selectFrom('calendar_feed')
    .innerJoin('organization', 'organization.id', 'calendar_feed.organization_id')
    .leftJoin('user_account', sameOrg('user_account.id', 'calendar_feed.user_id'))
    .leftJoin('assignment', sameOrg('assignment.id', 'calendar_feed.assignment_id'))
    .selectAll('calendar_feed')
    .select(['organization.name as organization_name', 'organization.timezone'])
    .where('calendar_feed.token_hash', '=', tokenHash)
    .where('calendar_feed.revoked_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('calendar_feed.user_id', 'is not', null),
          eb('user_account.id', 'is not', null),
          eb('user_account.deleted_at', 'is', null),
        ]),
        eb.and([
          eb('calendar_feed.assignment_id', 'is not', null),
          eb('assignment.id', 'is not', null),
          eb('assignment.deleted_at', 'is', null),
        ]),
      ]),
    )
    .executeTakeFirst();
}
