import { orgColumns } from '../core/db/org-rows.js';
import type { Db } from '../core/db/transaction.js';
import { PENDING } from '../resources/time-offs/table.js';

/** The active user a sign-in names, with the organization it belongs to. */
export async function findSignInUser(db: Db, organizationId: number, username: string) {
  return db
    .selectFrom('user_account as u')
    .innerJoin('organization as o', 'o.id', 'u.organization_id')
    .select([
      'u.id',
      'u.username',
      'u.first_name',
      'u.last_name',
      'u.role',
      'u.password_hash',
      'o.name as organization_name',
      'o.timezone',
    ])
    .where('u.organization_id', '=', organizationId)
    .where('u.username', '=', username)
    .where('u.deleted_at', 'is', null)
    .where('u.active', '=', 1)
    .executeTakeFirst();
}

/** Replaces a password hash by one of today's parameters, unless the password changed meanwhile. */
export async function replacePasswordHash(
  db: Db,
  organizationId: number,
  userId: number,
  old: string,
  upgraded: string,
): Promise<void> {
  await db
    .updateTable('user_account')
    .set({ password_hash: upgraded })
    .where('organization_id', '=', organizationId)
    .where('id', '=', userId)
    .where('password_hash', '=', old)
    .execute();
}

/** Whether the time off entry is the user's own and still pending (what a non-admin may cancel). */
export async function isOwnPendingTimeOff(
  db: Db,
  organizationId: number,
  timeOffId: number,
  userId: number,
): Promise<boolean> {
  const row = await orgColumns(db, 'time_off', organizationId, ['id'])
    .where('id', '=', timeOffId)
    .where('user_id', '=', userId)
    .where('status', '=', PENDING)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}
