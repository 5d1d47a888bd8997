import { lastLivePosition, orgRows, rowsById, updateOrgRow } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, notFound } from '../../core/errors.js';
import type { LabelRow } from './table.js';

export function listLabels(db: Db, orgId: number): Promise<LabelRow[]> {
  return orgRows(db, 'label', orgId).where('deleted_at', 'is', null).orderBy('position').orderBy('id').execute();
}

export async function findLabelOrThrow(db: Db, orgId: number, id: number): Promise<LabelRow> {
  return orgRows(db, 'label', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow(() => notFound('Label'));
}

/** Loads the active labels named by ids in one query; 422 when one is missing. */
export async function findLabelsOrInvalid(db: Db, orgId: number, ids: number[]): Promise<Map<number, LabelRow>> {
  return rowsById(
    ids,
    (unique) => orgRows(db, 'label', orgId).where('id', 'in', unique).where('deleted_at', 'is', null).execute(),
    () => invalidParams('The selected label id is invalid.'),
  );
}

export async function nextLabelPosition(db: Db, orgId: number): Promise<number> {
  return ((await lastLivePosition(db, 'label', orgId)) ?? 0) + 1;
}

export async function insertLabel(
  db: Db,
  orgId: number,
  values: { label: string; color: string; text_color: string; position: number; created_at: string },
): Promise<number> {
  const { id } = await db
    .insertInto('label')
    .values({ ...values, organization_id: orgId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateLabel(
  db: Db,
  orgId: number,
  id: number,
  values: Partial<Pick<LabelRow, 'label' | 'color' | 'text_color' | 'position' | 'deleted_at'>>,
): Promise<void> {
  await updateOrgRow(db, 'label', orgId, id, values);
}
