import type { FastifyRequest } from 'fastify';
import { href } from '../../core/pagination.js';
import { formatIsoOffset } from '../../core/time.js';
import type { UserRow } from '../users/table.js';
import { userRef, userRefOrNull } from '../users/serialize.js';
import type { WorkTypeRow } from '../work-types/table.js';
import type { LabelOfShift, QualifierOfShift } from '../../scheduling/index.js';
import type { ShiftResponse } from './schemas.js';
import type { ShiftRow } from './table.js';

type BaseUrl = Pick<FastifyRequest, 'baseUrl'>;

export interface ShiftContext {
  timezone: string;
  users: Map<number, UserRow>;
  workTypes: Map<number, WorkTypeRow>;
  labels: LabelOfShift[];
  qualifiers: QualifierOfShift[];
}

export const labelItem = (request: BaseUrl, label: LabelOfShift) => ({
  id: label.id,
  href: href(request, `/labels/${label.id}`),
  label: label.label,
});
export const qualifierItem = (request: BaseUrl, q: QualifierOfShift) => ({
  id: q.id,
  href: href(request, `/qualifiers/${q.id}`),
  shortcode: q.shortcode,
  name: q.name,
});

/** A one-off shift as GET /shifts shows it: `labels` and `qualifiers` are null when the shift has none. */
export function serializeShift(request: BaseUrl, row: ShiftRow, context: ShiftContext): ShiftResponse {
  const user = context.users.get(row.user_id);
  const workType = context.workTypes.get(row.work_type_id);
  const labels = context.labels.filter((l) => l.shift_id === row.id).map((l) => labelItem(request, l));
  const qualifiers = context.qualifiers.filter((q) => q.shift_id === row.id).map((q) => qualifierItem(request, q));
  return {
    id: row.id,
    assignment_id: row.assignment_id,
    date: row.date,
    start: row.start,
    end: row.end,
    user: user ? userRef(request, user) : { id: row.user_id, name: '', href: href(request, `/users/${row.user_id}`) },
    scheduled_by: userRefOrNull(request, context.users, row.scheduled_by),
    work_type: {
      id: row.work_type_id,
      href: href(request, `/work_types/${row.work_type_id}`),
      name: workType?.label ?? '',
      work_code: workType?.work_code ?? null,
      subtype_id: row.work_subtype_id,
    },
    labels: labels.length ? labels : null,
    qualifiers: qualifiers.length ? qualifiers : null,
    traded_with: row.traded_with,
    from_callback: row.from_callback,
    notes: row.notes,
    created_at: formatIsoOffset(row.created_at, context.timezone)!,
    updated_at: formatIsoOffset(row.updated_at, context.timezone)!,
  };
}
