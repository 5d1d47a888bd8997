import { createHash } from 'node:crypto';
import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import { lockRowOrThrow, lockUsers } from '../../core/db/locks.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { assertGivenPeriod, hoursBetween, normalizeLocalDateTime, nowUtc } from '../../core/time.js';
import { fatigueSettingOf, occurrenceStaffing } from '../../scheduling/index.js';
import { findAssignmentOrInvalid } from '../assignments/repository.js';
import { insertShift } from '../callbacks/contracts.js';
import { findGroupsByIds, groupMemberIds } from '../groups/repository.js';
import { findUserOrInvalid, findUsersByIds } from '../users/repository.js';
import type { UserRow } from '../users/table.js';
import { defaultWorkTypeId } from '../work-types/repository.js';
import { explainOrder, type ExplainedMember } from './order.js';
import {
  autoForcedHireExists,
  findForcedHire,
  findForcedList,
  groupCovering,
  insertForcedHire,
  lastForcedOf,
  setLastForced,
} from './repository.js';
import type { ForcedHireRow, ForcedHireTrigger, ForcedListRow } from './table.js';

export interface ForceRequest {
  assignment_id: number;
  start: string;
  end: string;
  group_id?: number;
  /** the admin who orders it (automatic: the list's `initiated_by`, may be null) */
  ordered_by: number | null;
  notes?: string | null;
  trigger: ForcedHireTrigger;
  /** automatic: the voluntary callback that ended unfilled */
  callback_id?: number | null;
  /** automatic: `assignment@date`, one automatic forced hire per vacancy */
  auto_key?: string | null;
}

export interface ForcedHire {
  row: ForcedHireRow;
  /** the person forced; undefined when nobody was eligible (automatic forced hires record that) */
  forced: UserRow | undefined;
  assignmentName: string;
  groupName: string;
}

/** The group named, or the one whose forced list covers the assignment, with its list; one 422 otherwise. */
async function listFor(
  trx: Db,
  orgId: number,
  groupId: number | undefined,
  assignmentId: number,
): Promise<{ list: ForcedListRow; groupName: string }> {
  const id = groupId ?? (await groupCovering(trx, orgId, assignmentId));
  if (id === undefined)
    throw invalidParams(
      `No group's forced list covers assignment #${assignmentId}: name the group (group id) or add the ` +
        'assignment to a forced list.',
    );
  const [group] = await findGroupsByIds(trx, orgId, [id]);
  if (!group) throw invalidParams('The selected group id is invalid.');
  const list = await findForcedList(trx, orgId, id);
  if (!list) throw invalidParams(`Group ${group.name} has no forced list: set one with PUT /groups/${id}/forced_list.`);
  return { list, groupName: group.name };
}

/** The occurrence of the assignment the span overlaps most, with its staffing from the engine. */
async function occurrenceOf(trx: Db, auth: AuthContext, assignmentId: number, span: { start: string; end: string }) {
  const occurrences = await occurrenceStaffing(trx, auth.orgId, span, auth.timezone, [assignmentId]);
  const overlap = (o: { start: string; end: string }) =>
    hoursBetween(o.start > span.start ? o.start : span.start, o.end < span.end ? o.end : span.end, auth.timezone);
  return occurrences.sort((a, b) => overlap(b) - overlap(a))[0];
}

const reasonsOf = (explained: ExplainedMember[]) =>
  explained.map((m) => `${m.name}: ${m.reason ?? m.verdict}`).join('; ') || 'the group has no members';

/**
 * The rules the order went by, as JSON with its SHA-256 (no ids: an organization's transfer keeps
 * it true): the forced list's settings and the organization's zone and fatigue rules.
 */
async function rulesOf(db: Db, orgId: number, list: ForcedListRow, timezone: string) {
  const { rules: fatigue } = await fatigueSettingOf(db, orgId);
  const rules = JSON.stringify({
    forced_list: {
      start_within_hours: Number(list.start_within_hours),
      time_off_buffer_hours: Number(list.time_off_buffer_hours),
      long_tour_hours: Number(list.long_tour_hours),
      long_tour_buffer_hours: Number(list.long_tour_buffer_hours),
    },
    organization: { timezone, fatigue_rules: fatigue },
  });
  return { rules, rules_hash: createHash('sha256').update(rules, 'utf8').digest('hex') };
}

/**
 * Forces one member of the group's forced list into the vacancy (docs/contract-rules.md, "Forced
 * hire"), in the caller's transaction: the assignment's row is locked (every forced hire of the
 * assignment queues on it), then the members' schedules (lockUsers); the vacancy must still have an
 * open seat (the engine's staffing, read under the lock), so of many orders for one seat one wins.
 * The first member in order available and outside the buffers gets the shift at once, and their
 * last-forced date becomes its start. Nobody eligible: 422 for an order; recorded for an automatic
 * one (so it is not tried again). Answers null when the automatic one for the vacancy exists already.
 */
export async function forceHire(trx: Db, auth: AuthContext, request: ForceRequest): Promise<ForcedHire | null> {
  const { orgId, timezone } = auth;
  const [assignment, , , found] = await checkAll([
    () => findAssignmentOrInvalid(trx, orgId, request.assignment_id),
    () => (request.ordered_by !== null ? findUserOrInvalid(trx, orgId, request.ordered_by, 'ordered by') : null),
    () => assertGivenPeriod(request.start, request.end, { within: 'forced hire' }),
    () => listFor(trx, orgId, request.group_id, request.assignment_id),
  ] as const);
  const { list, groupName } = found;
  const span = { start: normalizeLocalDateTime(request.start), end: normalizeLocalDateTime(request.end) };
  await lockRowOrThrow(trx, { table: 'assignment', orgId, id: assignment.id, model: 'Assignment' });
  if (request.auto_key && (await autoForcedHireExists(trx, orgId, request.auto_key))) return null;
  const occurrence = await occurrenceOf(trx, auth, assignment.id, span);
  if (!occurrence || occurrence.staffing.open <= 0)
    throw invalidParams(
      `${assignment.name} has no open seat from ${span.start} to ${span.end}: there is nobody to force.`,
    );
  const memberIds = await groupMemberIds(trx, orgId, list.group_id);
  await lockUsers(trx, memberIds);
  const members = [...(await findUsersByIds(trx, orgId, memberIds)).values()];
  const lastForced = await lastForcedOf(trx, orgId, list.group_id);
  const { explained, forced } = await explainOrder(trx, orgId, list, members, lastForced, span, timezone);
  const where = `${assignment.name} ${span.start.slice(0, 16)} to ${span.end.slice(0, 16)}`;
  if (!forced && request.trigger === 'admin')
    throw invalidParams(`Nobody on ${groupName}'s forced list can be forced for ${where}: ${reasonsOf(explained)}.`);
  const why = request.callback_id
    ? `the voluntary callback #${request.callback_id} ended unfilled and the vacancy is still open`
    : 'an admin ordered a forced hire for the open vacancy';
  const reason = forced
    ? `Forced hire on ${where}: ${why}; you are the first available on ${groupName}'s forced list ` +
      `(${explained.find((m) => m.verdict === 'forced')!.reason}).`
    : `Nobody on ${groupName}'s forced list could be forced for ${where}: ${reasonsOf(explained)}.`;
  const shiftId = forced
    ? await insertShift(trx, orgId, {
        assignment_id: assignment.id,
        user_id: forced.id,
        date: occurrence.date,
        start: span.start,
        end: span.end,
        work_type_id: list.work_type_id ?? (await defaultWorkTypeId(trx, orgId, 'Overtime')),
        work_subtype_id: null,
        notes: `Forced hire (${groupName})`,
        from_callback: null,
        traded_with: null,
        scheduled_by: request.ordered_by,
      })
    : null;
  if (forced) await setLastForced(trx, orgId, list.group_id, forced.id, span.start);
  const id = await insertForcedHire(trx, {
    organization_id: orgId,
    group_id: list.group_id,
    assignment_id: assignment.id,
    date: occurrence.date,
    start: span.start,
    end: span.end,
    status: forced ? 'forced' : 'nobody eligible',
    user_id: forced?.id ?? null,
    shift_id: shiftId,
    trigger: request.trigger,
    ordered_by: request.ordered_by,
    callback_id: request.callback_id ?? null,
    reason,
    notes: request.notes ?? null,
    explained: JSON.stringify(explained),
    ...(await rulesOf(trx, orgId, list, timezone)),
    auto_key: request.auto_key ?? null,
    created_at: nowUtc(),
  });
  await logAction(trx, auth, forced ? 'forced_hire.placed' : 'forced_hire.nobody_eligible', id, {
    description: forced
      ? `forced ${explained.find((m) => m.verdict === 'forced')!.name} onto ${where} (forced hire #${id}, ` +
        `shift #${shiftId}, ${groupName}'s forced list).`
      : `found nobody to force onto ${where} (forced hire #${id}): ${reasonsOf(explained)}.`,
    actorUserId: request.ordered_by ?? undefined,
    after: { ...request, shift_id: shiftId, user_id: forced?.id ?? null, explained },
  });
  const row = (await findForcedHire(trx, orgId, id))!;
  return { row, forced, assignmentName: assignment.name, groupName };
}
