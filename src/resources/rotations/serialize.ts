import type { FastifyRequest } from 'fastify';
import { href } from '../../core/pagination.js';
import type { UserRow } from '../users/table.js';
import { userRef, userRefOrNull } from '../users/serialize.js';
import { fullCycleDays } from '../../scheduling/rotation-pattern.js';
import type { KellyDay } from '../../scheduling/index.js';
import type { RecurringShiftResponse, RotationResponse, ScheduleKellyDay } from './schemas.js';
import type { RecurringShiftExceptionRow, RecurringShiftRow, RotationRow } from './table.js';

type BaseUrl = Pick<FastifyRequest, 'baseUrl'>;

export function serializeRotation(request: BaseUrl, row: RotationRow): RotationResponse {
  const pattern = JSON.parse(row.pattern) as number[];
  return {
    id: row.id,
    href: href(request, `/rotations/${row.id}`),
    name: row.name,
    anchor_date: row.anchor_date,
    pattern,
    crews: JSON.parse(row.crews) as Record<string, number>,
    kelly_every: row.kelly_every,
    kelly_code: row.kelly_code,
    kelly_name: row.kelly_name,
    cycle_days: fullCycleDays({ anchorDate: row.anchor_date, pattern, kellyEvery: row.kelly_every }),
  };
}

export interface RecurringShiftContext {
  users: Map<number, UserRow>;
  rotations: Map<number, RotationRow>;
  exceptions: RecurringShiftExceptionRow[];
}

export function serializeRecurringShift(
  request: BaseUrl,
  row: RecurringShiftRow,
  context: RecurringShiftContext,
): RecurringShiftResponse {
  const user = context.users.get(row.user_id);
  const rotation = context.rotations.get(row.rotation_id);
  return {
    id: row.id,
    href: href(request, `/recurring_shifts/${row.id}`),
    user: user ? userRef(request, user) : { id: row.user_id, name: '', href: href(request, `/users/${row.user_id}`) },
    rotation: { id: row.rotation_id, name: rotation?.name ?? '' },
    assignment_ids: JSON.parse(row.assignment_ids) as number[],
    crew_offset: row.crew_offset,
    kelly_offset: row.kelly_offset,
    start_date: row.start_date,
    end_date: row.end_date,
    work_type_id: row.work_type_id,
    work_subtype_id: row.work_subtype_id,
    break_start: row.break_start,
    break_length: row.break_length,
    notes: row.notes,
    scheduled_by: userRefOrNull(request, context.users, row.scheduled_by),
    previous_id: row.previous_id,
    exceptions: context.exceptions
      .filter((e) => e.recurring_shift_id === row.id)
      .map((e) => ({
        date: e.date,
        kind: e.kind,
        assignment_id: e.assignment_id,
        start: e.start,
        end: e.end,
        reason: e.reason,
      })),
  };
}

/** A rotation member's Kelly day as GET /schedule lists it; `ref` names the user. */
export function scheduleKellyDay(
  { user_id, date: _date, ...day }: KellyDay,
  ref: (userId: number) => ScheduleKellyDay['user'],
): ScheduleKellyDay {
  return { user: ref(user_id), ...day };
}
