import { jsonArrayFrom, parseJsonArray } from '../../core/db/json.js';
import type { Db } from '../../core/db/transaction.js';
import { mayOccurBetween, type QualifierNeeded } from '../assignments/repository.js';
import type { AssignmentRow } from '../assignments/table.js';
import type { UserRow } from '../users/table.js';

/*
 * The schedule's loaders fetch rows with their children (JSON arrays from correlated subqueries),
 * so that one GET /schedule runs a fixed, small number of statements whatever the period.
 */

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
export async function assignmentsForSchedule(db: Db, orgId: number, startDate: string, endDate: string): Promise<ScheduleAssignments> {
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
          .innerJoin('qualifier as q', (join) => join.onRef('q.id', '=', 'aq.qualifier_id').onRef('q.organization_id', '=', 'aq.organization_id'))
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
    for (const { date } of parseJsonArray<{ date: string }>(finalized_dates)) result.finalized.add(`${assignment.id}|${date}`);
    const needed = parseJsonArray<QualifierNeeded>(qualifiers_needed);
    if (needed.length > 0) result.qualifiersNeeded.set(assignment.id, needed);
  }
  return result;
}

export interface Person {
  user: UserRow;
  groups: { id: number; label: string }[];
}

/** Above this many ids, reading the organization's users beats a long `in (…)` list. */
const WHOLE_ORGANIZATION_THRESHOLD = 300;

/** Users (deleted ones too: they are still named on old shifts) with their groups, in one statement. */
export async function peopleByIds(db: Db, orgId: number, ids: Iterable<number>): Promise<Map<number, Person>> {
  const unique = [...new Set(ids)].filter((id) => Number.isInteger(id) && id > 0);
  // no early return when there is none: GET /schedule runs the same statements whatever it holds
  const rows = await db
    .selectFrom('user_account')
    .selectAll('user_account')
    .select((eb) =>
      jsonArrayFrom(
        db,
        eb
          .selectFrom('user_group_member as m')
          .innerJoin('user_group as g', (join) => join.onRef('g.id', '=', 'm.group_id').onRef('g.organization_id', '=', 'm.organization_id'))
          .select(['g.id', 'g.name as label'])
          .where('m.organization_id', '=', orgId)
          .whereRef('m.user_id', '=', 'user_account.id')
          .orderBy('g.name'),
      ).as('groups'),
    )
    .where('user_account.organization_id', '=', orgId)
    .$if(unique.length <= WHOLE_ORGANIZATION_THRESHOLD, (qb) => qb.where('user_account.id', 'in', unique.length ? unique : [0]))
    .execute();
  const wanted = new Set(unique);
  const people = new Map<number, Person>();
  for (const { groups, ...user } of rows) {
    if (wanted.has(user.id)) people.set(user.id, { user, groups: parseJsonArray(groups) });
  }
  return people;
}
