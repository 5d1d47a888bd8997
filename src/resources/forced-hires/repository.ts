import { deleteOrgRows, orgColumns, orgRows } from '../../core/db/org-rows.js';
import type { Insertable } from 'kysely';
import type { Db } from '../../core/db/transaction.js';
import type {
  ForcedHireContactRow,
  ForcedHireContactTable,
  ForcedHireRow,
  ForcedHireTable,
  ForcedListRow,
  ForcedListTable,
} from './table.js';

export function findForcedList(db: Db, orgId: number, groupId: number): Promise<ForcedListRow | undefined> {
  return orgRows(db, 'forced_list', orgId).where('group_id', '=', groupId).executeTakeFirst();
}

/** The assignments whose vacancies the group's forced list covers. */
export async function forcedListAssignments(db: Db, orgId: number, groupId: number): Promise<number[]> {
  const rows = await orgColumns(db, 'forced_list_assignment', orgId, ['assignment_id'])
    .where('group_id', '=', groupId)
    .orderBy('assignment_id')
    .execute();
  return rows.map((r) => r.assignment_id);
}

/** The assignments among `ids` another group's forced list covers already, with that group. */
export function assignmentsCoveredElsewhere(db: Db, orgId: number, groupId: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return orgColumns(db, 'forced_list_assignment', orgId, ['assignment_id', 'group_id'])
    .where('group_id', '!=', groupId)
    .where('assignment_id', 'in', ids)
    .execute();
}

/** The group whose forced list covers the assignment, if any. */
export async function groupCovering(db: Db, orgId: number, assignmentId: number): Promise<number | undefined> {
  const row = await orgColumns(db, 'forced_list_assignment', orgId, ['group_id'])
    .where('assignment_id', '=', assignmentId)
    .executeTakeFirst();
  return row?.group_id;
}

export async function replaceForcedList(
  trx: Db,
  values: Insertable<ForcedListTable>,
  assignmentIds: number[],
  lastForced: Array<{ user_id: number; last_forced_at: string | null }>,
): Promise<void> {
  const { organization_id: orgId, group_id: groupId } = values;
  const existing = await findForcedList(trx, orgId, groupId);
  if (existing) {
    const { organization_id: _, group_id: __, ...changes } = values;
    await trx.updateTable('forced_list').set(changes).where('id', '=', existing.id).execute();
  } else {
    await trx.insertInto('forced_list').values(values).execute();
  }
  await deleteOrgRows(trx, 'forced_list_assignment', orgId).where('group_id', '=', groupId).execute();
  if (assignmentIds.length)
    await trx
      .insertInto('forced_list_assignment')
      .values(assignmentIds.map((assignment_id) => ({ organization_id: orgId, group_id: groupId, assignment_id })))
      .execute();
  for (const member of lastForced) {
    await deleteOrgRows(trx, 'forced_member', orgId)
      .where('group_id', '=', groupId)
      .where('user_id', '=', member.user_id)
      .execute();
    if (member.last_forced_at !== null) await setLastForced(trx, orgId, groupId, member.user_id, member.last_forced_at);
  }
}

/** When each member of the group was last forced (local datetimes); a member without an entry never was. */
export async function lastForcedOf(db: Db, orgId: number, groupId: number): Promise<Map<number, string>> {
  const rows = await orgColumns(db, 'forced_member', orgId, ['user_id', 'last_forced_at'])
    .where('group_id', '=', groupId)
    .execute();
  return new Map(rows.map((r) => [r.user_id, r.last_forced_at]));
}

export async function setLastForced(trx: Db, orgId: number, groupId: number, userId: number, at: string) {
  await trx
    .insertInto('forced_member')
    .values({ organization_id: orgId, group_id: groupId, user_id: userId, last_forced_at: at })
    .onConflict((oc) => oc.columns(['organization_id', 'group_id', 'user_id']).doUpdateSet({ last_forced_at: at }))
    .execute();
}

export async function insertForcedHire(trx: Db, values: Insertable<ForcedHireTable>): Promise<number> {
  const { id } = await trx.insertInto('forced_hire').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

export function findForcedHire(db: Db, orgId: number, id: number): Promise<ForcedHireRow | undefined> {
  return orgRows(db, 'forced_hire', orgId).where('id', '=', id).executeTakeFirst();
}

export async function autoForcedHireExists(db: Db, orgId: number, key: string): Promise<boolean> {
  const row = await orgColumns(db, 'forced_hire', orgId, ['id']).where('auto_key', '=', key).executeTakeFirst();
  return row !== undefined;
}

/** Newest first; one more than `limit` so the caller knows whether there is a next page. */
export function listForcedHires(
  db: Db,
  orgId: number,
  query: { groupId?: number; assignmentId?: number; offset: number; limit: number },
): Promise<ForcedHireRow[]> {
  return orgRows(db, 'forced_hire', orgId)
    .$if(query.groupId !== undefined, (qb) => qb.where('group_id', '=', query.groupId!))
    .$if(query.assignmentId !== undefined, (qb) => qb.where('assignment_id', '=', query.assignmentId!))
    .orderBy('id', 'desc')
    .offset(query.offset)
    .limit(query.limit + 1)
    .execute();
}

/** The forced lists that start by themselves, of every organization. */
export function enabledForcedLists(db: Db, limit: number): Promise<ForcedListRow[]> {
  return db
    .selectFrom('forced_list')
    .selectAll()
    .where('enabled', '=', 1)
    .orderBy('organization_id')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * The voluntary callback on the assignment overlapping the span that ended unfilled at `now`:
 * fewer accepted than its positions, not cancelled, and its list ran out or its deadline passed.
 */
export function unfilledCallback(
  db: Db,
  orgId: number,
  assignmentId: number,
  span: { start: string; end: string },
  now: string,
) {
  return orgColumns(db, 'callback', orgId, ['id'])
    .where('assignment_id', '=', assignmentId)
    .where('start', '<', span.end)
    .where('end', '>', span.start)
    .where('status', '=', 'active')
    .whereRef('accepted_count', '<', 'positions_to_fill')
    .where((eb) => eb.or([eb('list_ended_at', 'is not', null), eb('deadline', '<=', now)]))
    .orderBy('id')
    .executeTakeFirst();
}

/** A message sent (or not) to the person forced: append-only, nothing updates or deletes it. */
export async function insertForcedHireContact(db: Db, values: Insertable<ForcedHireContactTable>): Promise<void> {
  await db.insertInto('forced_hire_contact').values(values).execute();
}

/** The contacts of the forced hires `ids`, oldest first, by forced hire. */
export async function contactsOfForcedHires(
  db: Db,
  orgId: number,
  ids: number[],
): Promise<Map<number, ForcedHireContactRow[]>> {
  const byHire = new Map<number, ForcedHireContactRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byHire;
  const rows = await orgRows(db, 'forced_hire_contact', orgId)
    .where('forced_hire_id', 'in', ids)
    .orderBy('id')
    .execute();
  for (const row of rows) byHire.get(row.forced_hire_id)?.push(row);
  return byHire;
}
