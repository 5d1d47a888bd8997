import type { Updateable } from 'kysely';
import { deleteOrgRows, orgColumns, orgRows, updateOrgRow } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import type { UserCertificationRow, UserCertificationTable } from '../certifications/table.js';

/** The user's certification records whose certification is not deleted, with its name and id. */
function userCertifications(db: Db, orgId: number, userId: number) {
  return db
    .selectFrom('user_certification')
    .innerJoin('certification', 'certification.id', 'user_certification.certification_id')
    .selectAll('user_certification')
    .select(['certification.name', 'certification.cert_id'])
    .where('user_certification.organization_id', '=', orgId)
    .where('certification.organization_id', '=', orgId)
    .where('user_certification.user_id', '=', userId)
    .where('certification.deleted_at', 'is', null);
}

/** The user's certification records whose certification is not deleted. */
export function listUserCertifications(db: Db, orgId: number, userId: number) {
  return userCertifications(db, orgId, userId).orderBy('certification.name').orderBy('certification.id').execute();
}

export type UserCertificationView = Awaited<ReturnType<typeof listUserCertifications>>[number];

export async function findUserCertification(db: Db, orgId: number, userId: number, certificationId: number) {
  return userCertifications(db, orgId, userId)
    .where('user_certification.certification_id', '=', certificationId)
    .executeTakeFirst();
}

/** Any record of the pair, also one whose certification was deleted (to refuse duplicates). */
export function findUserCertificationRow(db: Db, orgId: number, userId: number, certificationId: number) {
  return orgRows(db, 'user_certification', orgId)
    .where('user_id', '=', userId)
    .where('certification_id', '=', certificationId)
    .executeTakeFirst();
}

export async function insertUserCertification(db: Db, values: Omit<UserCertificationRow, 'id'>): Promise<void> {
  await db.insertInto('user_certification').values(values).execute();
}

export async function updateUserCertification(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<UserCertificationTable>,
) {
  await updateOrgRow(db, 'user_certification', orgId, id, values);
}

/** Deletes records and returns the stored file names they held. */
export async function deleteUserCertifications(
  db: Db,
  orgId: number,
  userId: number,
  certificationId?: number,
): Promise<string[]> {
  const rows = await orgColumns(db, 'user_certification', orgId, ['id', 'file_storage_name'])
    .where('user_id', '=', userId)
    .$if(certificationId !== undefined, (qb) => qb.where('certification_id', '=', certificationId!))
    .execute();
  if (rows.length === 0) return [];
  await deleteOrgRows(db, 'user_certification', orgId)
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  return rows.flatMap((row) => (row.file_storage_name ? [row.file_storage_name] : []));
}
