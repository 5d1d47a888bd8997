import { orgRows, rowsById, updateOrgRow } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, notFound } from '../../core/errors.js';
import type { CertificationRow } from './table.js';

export function listCertifications(db: Db, orgId: number): Promise<CertificationRow[]> {
  return orgRows(db, 'certification', orgId).where('deleted_at', 'is', null).orderBy('id').execute();
}

/** Any certification of the organization, deleted or not (DELETE tells the two apart). */
export function findCertificationAnyState(db: Db, orgId: number, id: number): Promise<CertificationRow | undefined> {
  return orgRows(db, 'certification', orgId).where('id', '=', id).executeTakeFirst();
}

/** Deleted certifications vanish from reads: they are a 404 like a missing one. */
export async function findCertificationOrThrow(db: Db, orgId: number, id: number): Promise<CertificationRow> {
  const row = await findCertificationAnyState(db, orgId, id);
  if (!row || row.deleted_at) throw notFound('Certification');
  return row;
}

export async function findCertificationOrInvalid(db: Db, orgId: number, id: number): Promise<CertificationRow> {
  const row = await findCertificationAnyState(db, orgId, id);
  if (!row || row.deleted_at) throw invalidParams('The selected certification id is invalid.');
  return row;
}

/** Loads certifications (deleted ones too) by ids in one query. */
export async function findCertificationsByIds(
  db: Db,
  orgId: number,
  ids: number[],
): Promise<Map<number, CertificationRow>> {
  return rowsById(ids, (unique) => orgRows(db, 'certification', orgId).where('id', 'in', unique).execute());
}

export async function insertCertification(db: Db, values: Omit<CertificationRow, 'id'>): Promise<number> {
  const { id } = await db.insertInto('certification').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateCertification(
  db: Db,
  orgId: number,
  id: number,
  values: Partial<Pick<CertificationRow, 'name' | 'cert_id' | 'updated_at' | 'deleted_at'>>,
): Promise<void> {
  await updateOrgRow(db, 'certification', orgId, id, values);
}
