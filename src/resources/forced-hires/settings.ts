import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams, notFound } from '../../core/errors.js';
import { normalizeLocalDateTime, nowLocal, nowUtc } from '../../core/time.js';
import { assertAssignmentsExist } from '../assignments/repository.js';
import { findGroupsByIds, groupMemberIds } from '../groups/repository.js';
import { findUserOrInvalid, findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import { findWorkTypeOrInvalid } from '../work-types/repository.js';
import { bufferReasons, forcedOrder } from './order.js';
import {
  assignmentsCoveredElsewhere,
  findForcedList,
  forcedListAssignments,
  lastForcedOf,
  replaceForcedList,
} from './repository.js';
import type { ForcedListBody, ForcedListResponse } from './schemas.js';

/** The defaults of a group without a forced list yet (off, no buffers). */
const DEFAULTS = {
  enabled: false,
  start_within_hours: 12,
  time_off_buffer_hours: 0,
  long_tour_hours: 0,
  long_tour_buffer_hours: 0,
  initiated_by: null,
  work_type_id: null,
};

async function groupOrThrow(db: Db, orgId: number, groupId: number) {
  const [group] = await findGroupsByIds(db, orgId, [groupId]);
  if (!group) throw notFound('Group');
  return group;
}

/**
 * The group's forced list: its settings and its members in forced order, each with the buffer they
 * are inside now (null: none), as a forced hire starting now would find it. 404 for an unknown group.
 */
export async function forcedListOf(
  db: Db,
  orgId: number,
  groupId: number,
  timezone: string,
): Promise<ForcedListResponse> {
  await groupOrThrow(db, orgId, groupId);
  const [row, assignmentIds, memberIds, lastForced] = await Promise.all([
    findForcedList(db, orgId, groupId),
    forcedListAssignments(db, orgId, groupId),
    groupMemberIds(db, orgId, groupId),
    lastForcedOf(db, orgId, groupId),
  ]);
  const members = forcedOrder([...(await findUsersByIds(db, orgId, memberIds)).values()], lastForced);
  const now = nowLocal(timezone);
  const buffers = row
    ? await bufferReasons(
        db,
        orgId,
        row,
        members.map((m) => m.id),
        { start: now, end: now },
        timezone,
      )
    : new Map<number, string>();
  return {
    group_id: groupId,
    ...(row
      ? {
          enabled: row.enabled === 1,
          start_within_hours: row.start_within_hours,
          time_off_buffer_hours: row.time_off_buffer_hours,
          long_tour_hours: row.long_tour_hours,
          long_tour_buffer_hours: row.long_tour_buffer_hours,
          initiated_by: row.initiated_by,
          work_type_id: row.work_type_id,
        }
      : DEFAULTS),
    assignment_ids: assignmentIds,
    members: members.map((m, index) => ({
      position: index + 1,
      user_id: m.id,
      name: fullName(m),
      last_forced: lastForced.get(m.id) ?? null,
      date_of_hire: m.date_of_hire,
      buffer: buffers.get(m.id) ?? null,
    })),
  };
}

/** Checks every field (one 422 naming each failing one), then replaces the group's forced list whole. */
export async function replaceForcedListSettings(
  trx: Db,
  auth: AuthContext,
  groupId: number,
  body: ForcedListBody,
): Promise<void> {
  const { orgId } = auth;
  const group = await groupOrThrow(trx, orgId, groupId);
  const assignmentIds = [...new Set(body.assignment_ids)];
  const lastForced = body.last_forced ?? [];
  await checkAll([
    () => (body.initiated_by !== null ? findUserOrInvalid(trx, orgId, body.initiated_by, 'initiated by') : null),
    () => (body.work_type_id ? findWorkTypeOrInvalid(trx, orgId, body.work_type_id) : null),
    () => {
      if (body.enabled && body.initiated_by === null)
        throw invalidParams('The initiated by field is required when the forced list starts by itself (enabled).');
    },
    () => assertAssignmentsExist(trx, orgId, assignmentIds),
    async () => {
      const taken = await assignmentsCoveredElsewhere(trx, orgId, groupId, assignmentIds);
      if (taken.length)
        throw invalidParams(
          `The assignment ids ${taken.map((t) => `${t.assignment_id} (group #${t.group_id})`).join(', ')} ` +
            "are covered by another group's forced list already.",
        );
    },
    async () => {
      const members = new Set(await groupMemberIds(trx, orgId, groupId));
      const strangers = lastForced.map((m) => m.user_id).filter((id) => !members.has(id));
      if (strangers.length)
        throw invalidParams(`The last forced user ids ${strangers.join(', ')} are not members of ${group.name}.`);
    },
  ] as const);
  await replaceForcedList(
    trx,
    {
      organization_id: orgId,
      group_id: groupId,
      enabled: body.enabled ? 1 : 0,
      start_within_hours: body.start_within_hours,
      time_off_buffer_hours: body.time_off_buffer_hours,
      long_tour_hours: body.long_tour_hours,
      long_tour_buffer_hours: body.long_tour_buffer_hours,
      initiated_by: body.initiated_by,
      work_type_id: body.work_type_id ?? null,
      updated_at: nowUtc(),
    },
    assignmentIds,
    lastForced.map((m) => ({
      user_id: m.user_id,
      last_forced_at: m.last_forced === null ? null : normalizeLocalDateTime(m.last_forced),
    })),
  );
  await logAction(trx, auth, 'group.forced_list_updated', groupId, {
    description: `replaced the forced list of group ${group.name}.`,
    after: body,
  });
}
