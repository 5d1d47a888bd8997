import type { Db } from '../../core/db/transaction.js';
import { qualifiersNeededOf } from '../assignments/repository.js';
import type { WorkItem } from '../callbacks/contracts.js';

interface Requirement {
  id: number;
  label: string;
}

/** The qualifiers attached to the one-off shifts being moved. */
async function shiftQualifiers(db: Db, orgId: number, work: WorkItem[]): Promise<Requirement[]> {
  const shiftIds = work.map((item) => item.shift_id).filter((id): id is number => id !== null);
  if (shiftIds.length === 0) return [];
  const rows = await db
    .selectFrom('shift_qualifier')
    .innerJoin('qualifier', (join) =>
      join.onRef('qualifier.id', '=', 'shift_qualifier.qualifier_id').onRef('qualifier.organization_id', '=', 'shift_qualifier.organization_id'),
    )
    .select(['qualifier.id', 'qualifier.shortcode', 'qualifier.name'])
    .where('shift_qualifier.organization_id', '=', orgId)
    .where('shift_qualifier.shift_id', 'in', [...new Set(shiftIds)])
    .where('qualifier.deleted_at', 'is', null)
    .orderBy('qualifier.id')
    .execute();
  return rows.map((q) => ({ id: q.id, label: q.shortcode ?? q.name }));
}

async function qualifierIdsOf(db: Db, orgId: number, userIds: number[]): Promise<Map<number, Set<number>>> {
  const rows = await db.selectFrom('user_qualifier').select(['user_id', 'qualifier_id']).where('organization_id', '=', orgId).where('user_id', 'in', userIds).execute();
  const byUser = new Map(userIds.map((id) => [id, new Set<number>()]));
  for (const row of rows) byUser.get(row.user_id)?.add(row.qualifier_id);
  return byUser;
}

/**
 * Shortcodes (or names) of the qualifiers the taker lacks for the moved work. Required are the
 * qualifiers attached to the moved one-off shifts, and the assignments' qualifiers needed that the
 * giver holds: whoever takes a qualified seat must hold the same qualification. Four queries.
 */
export async function missingQualifiers(db: Db, orgId: number, parties: { giverId: number; takerId: number }, work: WorkItem[]): Promise<string[]> {
  const [fromShifts, needed, held] = await Promise.all([
    shiftQualifiers(db, orgId, work),
    qualifiersNeededOf(db, orgId, [...new Set(work.map((item) => item.assignment_id))]),
    qualifierIdsOf(db, orgId, [parties.giverId, parties.takerId]),
  ]);
  const giverHolds = held.get(parties.giverId)!;
  const takerHolds = held.get(parties.takerId)!;
  const seatQualifiers = [...needed.values()].flat().filter((q) => giverHolds.has(q.id)).map((q) => ({ id: q.id, label: q.shortcode ?? q.name }));
  const missing = new Map([...fromShifts, ...seatQualifiers].filter((q) => !takerHolds.has(q.id)).map((q) => [q.id, q.label]));
  return [...missing.values()];
}
