import type { Db } from '../../core/db/transaction.js';
import { forUpdate } from '../../core/db/transaction.js';
import type { BulletinBoardLockRow, BulletinBoardRow } from './table.js';

export function findBulletinBoard(db: Db, orgId: number): Promise<BulletinBoardRow | undefined> {
  return db.selectFrom('bulletin_board').selectAll().where('organization_id', '=', orgId).executeTakeFirst();
}

export function findBoardLock(
  db: Db,
  orgId: number,
  options: { lock?: boolean } = {},
): Promise<BulletinBoardLockRow | undefined> {
  const query = db.selectFrom('bulletin_board_lock').selectAll().where('organization_id', '=', orgId);
  return (options.lock ? forUpdate(db, query) : query).executeTakeFirst();
}

export async function saveBulletinBoard(
  db: Db,
  orgId: number,
  values: { content: string; last_updated_by: number; last_updated_at: string },
) {
  const existing = await forUpdate(
    db,
    db.selectFrom('bulletin_board').select('id').where('organization_id', '=', orgId),
  ).executeTakeFirst();
  if (existing) {
    await db
      .updateTable('bulletin_board')
      .set(values)
      .where('organization_id', '=', orgId)
      .where('id', '=', existing.id)
      .execute();
  } else {
    await db
      .insertInto('bulletin_board')
      .values({ ...values, organization_id: orgId })
      .execute();
  }
}

export async function saveBoardLock(
  db: Db,
  orgId: number,
  values: { lock_id: string; admin_id: number; expires_at: string; created_at: string },
) {
  const result = await db
    .updateTable('bulletin_board_lock')
    .set(values)
    .where('organization_id', '=', orgId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    await db
      .insertInto('bulletin_board_lock')
      .values({ ...values, organization_id: orgId })
      .execute();
  }
}

export async function deleteBoardLock(db: Db, orgId: number): Promise<void> {
  await db.deleteFrom('bulletin_board_lock').where('organization_id', '=', orgId).execute();
}
