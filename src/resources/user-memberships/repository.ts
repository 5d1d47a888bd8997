import { deleteOrgRows, orgRows } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';

/** The user's active qualifiers in ranking order. */
export function listQualifiersOfUser(db: Db, orgId: number, userId: number) {
  return db
    .selectFrom('user_qualifier')
    .innerJoin('qualifier', 'qualifier.id', 'user_qualifier.qualifier_id')
    .select(['qualifier.id', 'qualifier.name', 'qualifier.shortcode', 'user_qualifier.ranking'])
    .where('user_qualifier.organization_id', '=', orgId)
    .where('qualifier.organization_id', '=', orgId)
    .where('user_qualifier.user_id', '=', userId)
    .where('qualifier.deleted_at', 'is', null)
    .orderBy('user_qualifier.ranking')
    .orderBy('qualifier.id')
    .execute();
}

export function findUserQualifier(db: Db, orgId: number, userId: number, qualifierId: number) {
  return orgRows(db, 'user_qualifier', orgId)
    .where('user_id', '=', userId)
    .where('qualifier_id', '=', qualifierId)
    .executeTakeFirst();
}

export async function nextRanking(db: Db, orgId: number, userId: number): Promise<number> {
  const row = await db
    .selectFrom('user_qualifier')
    .select((eb) => eb.fn.max('ranking').as('max'))
    .where('organization_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.max ?? 0) + 1;
}

export async function insertUserQualifier(db: Db, orgId: number, userId: number, qualifierId: number, ranking: number) {
  await db
    .insertInto('user_qualifier')
    .values({ organization_id: orgId, user_id: userId, qualifier_id: qualifierId, ranking })
    .execute();
}

export async function deleteUserQualifier(db: Db, orgId: number, userId: number, qualifierId: number) {
  await deleteOrgRows(db, 'user_qualifier', orgId)
    .where('user_id', '=', userId)
    .where('qualifier_id', '=', qualifierId)
    .execute();
}

export async function replaceUserQualifiers(
  db: Db,
  orgId: number,
  userId: number,
  entries: Array<{ id: number; ranking: number }>,
) {
  await db.deleteFrom('user_qualifier').where('organization_id', '=', orgId).where('user_id', '=', userId).execute();
  if (entries.length === 0) return;
  await db
    .insertInto('user_qualifier')
    .values(
      entries.map((entry) => ({
        organization_id: orgId,
        user_id: userId,
        qualifier_id: entry.id,
        ranking: entry.ranking,
      })),
    )
    .execute();
}
