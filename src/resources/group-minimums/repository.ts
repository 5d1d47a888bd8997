import { deleteOrgRows, orgRows } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import type { GroupMinimumRow } from './table.js';

export function findGroupMinimum(db: Db, orgId: number, groupId: number): Promise<GroupMinimumRow | undefined> {
  return orgRows(db, 'group_minimum', orgId).where('assignment_group_id', '=', groupId).executeTakeFirst();
}

/** Sets the group's minimum (one row per group). */
export async function upsertGroupMinimum(
  db: Db,
  orgId: number,
  groupId: number,
  values: { min_on_duty: number; min_qualified: string },
  now: string,
): Promise<void> {
  const existing = await findGroupMinimum(db, orgId, groupId);
  if (existing) {
    await db
      .updateTable('group_minimum')
      .set({ ...values, updated_at: now })
      .where('organization_id', '=', orgId)
      .where('id', '=', existing.id)
      .execute();
    return;
  }
  await db
    .insertInto('group_minimum')
    .values({ organization_id: orgId, assignment_group_id: groupId, ...values, created_at: now, updated_at: now })
    .execute();
}

export async function deleteGroupMinimumRow(db: Db, orgId: number, groupId: number): Promise<number> {
  const result = await deleteOrgRows(db, 'group_minimum', orgId)
    .where('assignment_group_id', '=', groupId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
