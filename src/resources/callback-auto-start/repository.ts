import { orgColumns } from '../../core/db/org-rows.js';
import type { Insertable } from 'kysely';
import { leaseFree } from '../../core/db/lease.js';
import type { Db } from '../../core/db/transaction.js';
import type { CallbackAutoStartListTable, CallbackAutoStartRow, CallbackAutoStartTable } from './table.js';

export function findAutoStart(db: Db, orgId: number): Promise<CallbackAutoStartRow | undefined> {
  return db.selectFrom('callback_auto_start').selectAll().where('organization_id', '=', orgId).executeTakeFirst();
}

export function autoStartLists(db: Db, orgId: number): Promise<Array<{ assignment_id: number; list_id: number }>> {
  return orgColumns(db, 'callback_auto_start_list', orgId, ['assignment_id', 'list_id'])
    .orderBy('assignment_id')
    .execute();
}

export async function replaceAutoStart(
  db: Db,
  values: Insertable<CallbackAutoStartTable>,
  lists: Array<Omit<Insertable<CallbackAutoStartListTable>, 'organization_id'>>,
): Promise<void> {
  const orgId = values.organization_id;
  const existing = await findAutoStart(db, orgId);
  if (existing) {
    const { organization_id: _, lease_until: __, ...changes } = values;
    await db.updateTable('callback_auto_start').set(changes).where('id', '=', existing.id).execute();
  } else {
    await db.insertInto('callback_auto_start').values(values).execute();
  }
  await db.deleteFrom('callback_auto_start_list').where('organization_id', '=', orgId).execute();
  if (lists.length)
    await db
      .insertInto('callback_auto_start_list')
      .values(lists.map((l) => ({ ...l, organization_id: orgId })))
      .execute();
}

/** Organizations with auto-start on whose pass no process holds at `now`. */
export function autoStartsDue(db: Db, now: string, limit: number): Promise<CallbackAutoStartRow[]> {
  return db
    .selectFrom('callback_auto_start')
    .selectAll()
    .where('enabled', '=', 1)
    .where(leaseFree(now))
    .orderBy('organization_id')
    .limit(limit)
    .execute();
}

/** The vacancies (assignment, date) of the organization that already have their callback. */
export async function startedVacancies(db: Db, orgId: number, dates: string[]): Promise<Set<string>> {
  if (dates.length === 0) return new Set();
  const rows = await orgColumns(db, 'callback_auto_started', orgId, ['assignment_id', 'date'])
    .where('date', 'in', dates)
    .execute();
  return new Set(rows.map((r) => `${r.assignment_id}@${r.date}`));
}

/**
 * Claims the vacancy for a callback; false when it already has one (the unique index on
 * organization, assignment and date decides between processes).
 */
export async function claimVacancy(
  db: Db,
  orgId: number,
  vacancy: { assignment_id: number; date: string },
  now: string,
): Promise<boolean> {
  const result = await db
    .insertInto('callback_auto_started')
    .values({ organization_id: orgId, ...vacancy, callback_id: 0, created_at: now })
    .onConflict((oc) => oc.columns(['organization_id', 'assignment_id', 'date']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function setStartedCallback(
  db: Db,
  orgId: number,
  vacancy: { assignment_id: number; date: string },
  callbackId: number,
): Promise<void> {
  await db
    .updateTable('callback_auto_started')
    .set({ callback_id: callbackId })
    .where('organization_id', '=', orgId)
    .where('assignment_id', '=', vacancy.assignment_id)
    .where('date', '=', vacancy.date)
    .execute();
}
