import { sameOrg } from '../../core/db/org-rows.js';
import type { Db } from '../../core/db/transaction.js';
import { qualifiersNeededOf } from '../assignments/repository.js';
import { holds, loadQualifications, type WorkItem } from '../../scheduling/index.js';

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
    .innerJoin('qualifier', sameOrg('qualifier.id', 'shift_qualifier.qualifier_id'))
    .select(['qualifier.id', 'qualifier.shortcode', 'qualifier.name'])
    .where('shift_qualifier.organization_id', '=', orgId)
    .where('shift_qualifier.shift_id', 'in', [...new Set(shiftIds)])
    .where('qualifier.deleted_at', 'is', null)
    .orderBy('qualifier.id')
    .execute();
  return rows.map((q) => ({ id: q.id, label: q.shortcode ?? q.name }));
}

/**
 * The qualifiers whoever takes the moved work must hold (shortcodes or names), on the work's first
 * date: those attached to the moved one-off shifts, and the assignments' qualifiers needed that
 * the giver holds (whoever takes a qualified seat must hold the same qualification). Held = the
 * engine's qualifications (user qualifiers, current certifications); the engine's availability
 * checks the taker against them.
 */
export async function requiredQualifiers(
  db: Db,
  orgId: number,
  giverId: number,
  work: WorkItem[],
): Promise<{ date: string; qualifiers: Requirement[] }> {
  const [fromShifts, needed, held] = await Promise.all([
    shiftQualifiers(db, orgId, work),
    qualifiersNeededOf(db, orgId, [...new Set(work.map((item) => item.assignment_id))]),
    loadQualifications(db, orgId, [giverId]),
  ]);
  const date = work.map((item) => item.date).sort()[0] ?? '';
  const seatQualifiers = [...needed.values()]
    .flat()
    .filter((q) => holds(held, giverId, q.id, date))
    .map((q) => ({ id: q.id, label: q.shortcode ?? q.name }));
  const required = new Map([...fromShifts, ...seatQualifiers].map((q) => [q.id, q]));
  return { date, qualifiers: [...required.values()] };
}
