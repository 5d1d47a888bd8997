import type { Updateable } from 'kysely';
import { orgRows, updateOrgRow } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { notFound } from '../../core/errors.js';
import type { VisualCycleRow, VisualCycleTable } from './table.js';

/** Non-deleted cycles lying within [start, end] when given (a cycle must fit inside the period). */
export function listVisualCycles(
  db: Db,
  orgId: number,
  period: { start?: string; end?: string },
): Promise<VisualCycleRow[]> {
  return orgRows(db, 'visual_cycle', orgId)
    .where('deleted_at', 'is', null)
    .$if(period.start !== undefined, (qb) => qb.where('start', '>=', period.start!))
    .$if(period.end !== undefined, (qb) => qb.where('end', '<=', period.end!))
    .orderBy('start')
    .orderBy('id')
    .execute();
}

/** Finds a cycle whether or not it is deleted (the record shows deleted_by/deleted_at). */
export async function findVisualCycleOrThrow(db: Db, orgId: number, id: number): Promise<VisualCycleRow> {
  return orgRows(db, 'visual_cycle', orgId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow(() => notFound('VisualCycle'));
}

export async function insertVisualCycle(db: Db, values: Omit<VisualCycleRow, 'id'>): Promise<number> {
  const { id } = await db.insertInto('visual_cycle').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateVisualCycle(
  db: Db,
  orgId: number,
  id: number,
  values: Updateable<VisualCycleTable>,
): Promise<void> {
  await updateOrgRow(db, 'visual_cycle', orgId, id, values);
}
