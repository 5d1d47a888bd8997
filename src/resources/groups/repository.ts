import { assertOrgIds, orgColumns, orgRows, sameOrg } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import type { UserGroupRow } from './table.js';

export function listGroups(db: Db, orgId: number): Promise<UserGroupRow[]> {
  return orgRows(db, 'user_group', orgId).orderBy('name').orderBy('id').execute();
}

export async function insertGroup(db: Db, orgId: number, name: string, createdAt: string): Promise<number> {
  const { id } = await db
    .insertInto('user_group')
    .values({ organization_id: orgId, name, created_at: createdAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Checks in one query that every id names a group of the organization; 422 otherwise. */
export const assertGroupsExist = (db: Db, orgId: number, ids: number[]) =>
  assertOrgIds(db, 'user_group', orgId, ids, 'group id');

export function listGroupsOfUser(db: Db, orgId: number, userId: number) {
  return db
    .selectFrom('user_group_member')
    .innerJoin('user_group', 'user_group.id', 'user_group_member.group_id')
    .select(['user_group.id', 'user_group.name'])
    .where('user_group_member.organization_id', '=', orgId)
    .where('user_group.organization_id', '=', orgId)
    .where('user_group_member.user_id', '=', userId)
    .orderBy('user_group.name')
    .orderBy('user_group.id')
    .execute();
}

export async function replaceGroupsOfUser(db: Db, orgId: number, userId: number, groupIds: number[]): Promise<void> {
  await db.deleteFrom('user_group_member').where('organization_id', '=', orgId).where('user_id', '=', userId).execute();
  const unique = [...new Set(groupIds)];
  if (unique.length === 0) return;
  await db
    .insertInto('user_group_member')
    .values(unique.map((group_id) => ({ organization_id: orgId, user_id: userId, group_id })))
    .execute();
}

/** The organization's groups among the ids (missing ones left out). */
export function findGroupsByIds(db: Db, orgId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return orgColumns(db, 'user_group', orgId, ['id', 'name']).where('id', 'in', ids).execute();
}

/** Active members of a group (the notice group of a callback list). */
export async function groupMemberIds(db: Db, orgId: number, groupId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('user_group_member')
    .innerJoin('user_account', sameOrg('user_account.id', 'user_group_member.user_id'))
    .select('user_group_member.user_id')
    .where('user_group_member.organization_id', '=', orgId)
    .where('user_group_member.group_id', '=', groupId)
    .where('user_account.deleted_at', 'is', null)
    .orderBy('user_group_member.user_id')
    .execute();
  return rows.map((row) => row.user_id);
}
