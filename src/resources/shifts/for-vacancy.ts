import { Type, type Static } from '@sinclair/typebox';
import type { AuthContext } from '../../core/auth/context.js';
import { lockRowOrThrow } from '../../core/db/locks.js';
import type { Db } from '../../core/db/transaction.js';
import { conflict } from '../../core/errors.js';
import { DateStr, LocalDateTime } from '../../core/schemas.js';
import { normalizeLocalDateTime } from '../../core/time.js';
import { occurrenceStaffing } from '../../scheduling/index.js';

/**
 * POST /shifts `for_vacancy` (extension): the open seat the shift fills, as the client last read it
 * from GET /vacancies (or /vacancies/candidates): the occurrence of the shift's assignment by its
 * `date`, `start` and `end`. The request is refused with 409, writing nothing, when that occurrence
 * is no longer short (GET /vacancies would not list it: every seat taken, no qualifier short) or no
 * longer occurs at those hours. Decided under the assignment's row lock, in the write's transaction:
 * of two fills of a last seat at once, one wins. Without the field, POST /shifts behaves as the spec says.
 */
export const ForVacancy = Type.Object(
  { date: DateStr, start: LocalDateTime, end: LocalDateTime },
  {
    description:
      "extension: the open seat this shift fills, as last read from GET /vacancies (the occurrence's date, " +
      'start and end); 409 when it is no longer open',
  },
);
export type ForVacancy = Static<typeof ForVacancy>;

/** The assignment's row lock, which every write placing someone on it holds (rows first, then users). */
export function lockAssignment(trx: Db, auth: AuthContext, assignmentId: number) {
  return lockRowOrThrow(trx, { table: 'assignment', orgId: auth.orgId, id: assignmentId, model: 'Assignment' });
}

export async function assertVacancyOpen(
  trx: Db,
  auth: AuthContext,
  assignmentId: number,
  read: ForVacancy,
): Promise<void> {
  // every fill of a seat of the assignment (this one, a callback's acceptance) queues here: a row lock,
  // taken before the users' locks
  const assignment = await lockAssignment(trx, auth, assignmentId);
  const start = normalizeLocalDateTime(read.start);
  const end = normalizeLocalDateTime(read.end);
  const named = `The open seat of ${assignment.name} on ${read.date} (${start.slice(0, 16)} to ${end.slice(0, 16)})`;
  const occurrence = (await occurrenceStaffing(trx, auth.orgId, { start, end }, auth.timezone, [assignment.id])).find(
    (o) => o.date === read.date && o.start === start && o.end === end,
  );
  if (!occurrence)
    throw conflict(`${named} no longer occurs at those hours; nothing was recorded. Read the schedule again.`);
  const { open, qualifier_shortfalls: shortfalls } = occurrence.staffing;
  if (open <= 0 && shortfalls.length === 0)
    throw conflict(`${named} has been filled since it was read; nothing was recorded. Read the schedule again.`);
}
