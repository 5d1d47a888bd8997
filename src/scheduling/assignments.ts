import { jsonArrayFrom, parseJsonArray } from '../core/db/json.js';
import type { Db } from '../core/db/transaction.js';
import { mayOccurBetween, type QualifierNeeded } from '../resources/assignments/repository.js';
import type { AssignmentRow } from '../resources/assignments/table.js';

export interface ScheduleAssignments {
  assignments: AssignmentRow[];
  /** `assignment_id|date` of finalized days */
  finalized: Set<string>;
  qualifiersNeeded: Map<number, QualifierNeeded[]>;
}

/**
 * Non-deleted assignments that may have occurrences dated in [startDate, endDate], with their
 * finalized dates in the range and their qualifier minimums, in one statement.
 */
export async function assignmentsForSchedule(
  db: Db,
  orgId: number,
  startDate: string,
  endDate: string,
): Promise<ScheduleAssignments> {
  const rows = await db
    .selectFrom('assignment')
    .selectAll('assignment')
    .select((eb) => [
      jsonArrayFrom(
        db,
        eb
          .selectFrom('assignment_finalization as f')
          .select('f.date')
          .where('f.organization_id', '=', orgId)
          .whereRef('f.assignment_id', '=', 'assignment.id')
          .where('f.date', '>=', startDate)
          .where('f.date', '<=', endDate),
      ).as('finalized_dates'),
      jsonArrayFrom(
        db,
        eb
          .selectFrom('assignment_qualifier as aq')
          .innerJoin('qualifier as q', (join) =>
            join.onRef('q.id', '=', 'aq.qualifier_id').onRef('q.organization_id', '=', 'aq.organization_id'),
          )
          .select(['q.id', 'q.name', 'q.shortcode', 'q.color', 'q.text_color', 'aq.minimum_staffing'])
          .where('aq.organization_id', '=', orgId)
          .whereRef('aq.assignment_id', '=', 'assignment.id')
          .where('q.deleted_at', 'is', null)
          .orderBy('aq.id'),
      ).as('qualifiers_needed'),
    ])
    .where('assignment.organization_id', '=', orgId)
    .where((eb) => mayOccurBetween(eb, startDate, endDate))
    .orderBy('assignment.position')
    .orderBy('assignment.id')
    .execute();
  const result: ScheduleAssignments = { assignments: [], finalized: new Set(), qualifiersNeeded: new Map() };
  for (const { finalized_dates, qualifiers_needed, ...assignment } of rows) {
    result.assignments.push(assignment);
    for (const { date } of parseJsonArray<{ date: string }>(finalized_dates))
      result.finalized.add(`${assignment.id}|${date}`);
    const needed = parseJsonArray<QualifierNeeded>(qualifiers_needed);
    if (needed.length > 0) result.qualifiersNeeded.set(assignment.id, needed);
  }
  return result;
}
