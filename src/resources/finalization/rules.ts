import type { AuthContext } from '../../core/auth/context.js';
import type { Db } from '../../core/db/transaction.js';
import { invalidParams, notFound } from '../../core/errors.js';
import { ok } from '../../core/schemas.js';
import { assertPeriod, eachDate, formatDate, nowUtc, parseDate } from '../../core/time.js';
import { findUser } from '../users/repository.js';
import { deleteFinalization, findAssignmentsByIds, insertFinalization } from '../assignments/repository.js';
import { futureDateMessage, isFutureDate, logFinalization } from '../assignments/rules.js';
import type { BatchBody, BatchItem, BatchResult } from './schemas.js';

/** Most dates one batch item may name, so one request cannot ask for years of rows. */
const MAX_DATES_PER_ITEM = 366;

/** The listed dates and every date from start to end, merged, without repeats, in order. */
function datesOf(item: BatchItem, index: number): string[] {
  const hasRange = item.start !== undefined && item.end !== undefined;
  if (!item.dates?.length && !hasRange) {
    throw invalidParams(
      `The assignments.${index}.dates field is required when assignments.${index}.start and ` +
        `assignments.${index}.end are not present.`,
    );
  }
  const dates = new Set(item.dates ?? []);
  if (hasRange) {
    const start = parseDate(item.start!)!;
    const end = parseDate(item.end!)!;
    assertPeriod(item.start!, item.end!, {
      allowEqual: true,
      fields: { start: `assignments.${index}.start`, end: `assignments.${index}.end` },
    });
    if (start.until(end).days >= MAX_DATES_PER_ITEM)
      throw invalidParams(`The assignments.${index} period may not be longer than ${MAX_DATES_PER_ITEM} days.`);
    for (const date of eachDate(start, end)) dates.add(formatDate(date));
  }
  if (dates.size > MAX_DATES_PER_ITEM)
    throw invalidParams(`The assignments.${index} may not name more than ${MAX_DATES_PER_ITEM} dates.`);
  return [...dates].sort();
}

type Outcome = { ok: true; message: string } | { ok: false; message: string };

async function processDate(
  trx: Db,
  auth: AuthContext,
  finalize: boolean,
  id: number,
  date: string,
  adminId: number,
): Promise<Outcome> {
  if (isFutureDate(auth, date)) return { ok: false, message: futureDateMessage(id) };
  if (finalize) {
    const done = await insertFinalization(trx, auth.orgId, { assignmentId: id, date, adminId, createdAt: nowUtc() });
    return done
      ? { ok: true, message: `Assignment (#${id}) finalized on ${date}.` }
      : { ok: false, message: `Assignment (#${id}) is already finalized on ${date}.` };
  }
  const done = await deleteFinalization(trx, auth.orgId, id, date);
  // The published sample words a successful unfinalization exactly like a finalization.
  return done
    ? { ok: true, message: `Assignment (#${id}) finalized on ${date}.` }
    : { ok: false, message: `Assignment (#${id}) is not finalized on ${date}.` };
}

/**
 * POST and DELETE /finalization: every date of every item is processed; the answer lists what
 * succeeded and what did not, and is a 422 when nothing succeeded.
 */
export async function processBatch(
  trx: Db,
  auth: AuthContext,
  body: BatchBody,
  finalize: boolean,
): Promise<BatchResult> {
  const plan = body.assignments.map((item, index) => ({ id: item.id, dates: datesOf(item, index) }));
  if (!(await findUser(trx, auth.orgId, body.admin_id))) throw notFound('User');
  const assignments = await findAssignmentsByIds(
    trx,
    auth.orgId,
    plan.map((item) => item.id),
  );
  const successes: string[] = [];
  const errors: string[] = [];
  for (const { id, dates } of plan) {
    const assignment = assignments.get(id);
    if (!assignment) {
      errors.push(`Assignment (#${id}) does not exist.`);
      continue;
    }
    const changed: string[] = [];
    for (const date of dates) {
      const outcome = await processDate(trx, auth, finalize, id, date, body.admin_id);
      (outcome.ok ? successes : errors).push(outcome.message);
      if (outcome.ok) changed.push(date);
    }
    if (changed.length > 0) await logFinalization(trx, auth, assignment, changed, body.admin_id, finalize);
  }
  if (successes.length === 0) throw invalidParams(errors);
  if (errors.length === 0) return ok('All finaliziations processed successfully.');
  return ok('Finalizations processed with errors. See the error_messages field.', {
    success_messages: successes,
    error_messages: errors,
  });
}
