import { orgRows } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import type { DayLabelRow } from './table.js';

export function listDayLabels(db: Db, orgId: number, start: string, end: string): Promise<DayLabelRow[]> {
  return orgRows(db, 'day_label', orgId).where('date', '>=', start).where('date', '<=', end).orderBy('date').execute();
}

export function findDayLabel(db: Db, orgId: number, date: string): Promise<DayLabelRow | undefined> {
  return orgRows(db, 'day_label', orgId).where('date', '=', date).executeTakeFirst();
}

export async function upsertDayLabel(
  db: Db,
  orgId: number,
  date: string,
  { label, color }: { label: string; color: string },
): Promise<void> {
  const existing = await findDayLabel(db, orgId, date);
  if (existing) {
    await db
      .updateTable('day_label')
      .set({ label, color })
      .where('organization_id', '=', orgId)
      .where('id', '=', existing.id)
      .execute();
  } else {
    await db.insertInto('day_label').values({ organization_id: orgId, date, label, color }).execute();
  }
}

export async function deleteDayLabel(db: Db, orgId: number, date: string): Promise<void> {
  await db.deleteFrom('day_label').where('organization_id', '=', orgId).where('date', '=', date).execute();
}
