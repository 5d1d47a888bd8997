import type { FastifyRequest } from 'fastify';
import { href } from '../../core/pagination.js';
import type { TimeOffTypeResponse } from './schemas.js';
import { publicNameOf } from '../../core/masked-types.js';
import type { TimeOffTypeRow } from './table.js';

export function serializeTimeOffType(
  request: Pick<FastifyRequest, 'baseUrl'>,
  row: TimeOffTypeRow,
): TimeOffTypeResponse {
  return {
    id: String(row.id),
    label: row.label,
    work_code: row.work_code,
    required_buffer: Number(row.required_buffer).toFixed(2),
    instance_limit: String(row.instance_limit),
    primary_color: row.primary_color,
    secondary_color: row.secondary_color,
    force_include: row.force_include === 1,
    forward: row.forward === 1,
    href: href(request, `/time_off_types/${row.id}`),
    sick_leave: row.sick_leave === 1,
    masked: row.masked === 1,
    public_name: publicNameOf(row),
  };
}

/** The type's overdraft rule as the API shows it (docs/time-off.md#overdraft-rules). */
export function overdraftOf(row: Pick<TimeOffTypeRow, 'allow_negative' | 'overdraft_hours'>) {
  if (row.allow_negative !== 1) return { overdraft: 'refuse' as const, overdraft_hours: 0 };
  if (row.overdraft_hours === null) return { overdraft: 'allow' as const, overdraft_hours: null };
  return { overdraft: 'limit' as const, overdraft_hours: Number(row.overdraft_hours) };
}

export function serializeTimeOffTypeDetail(request: Pick<FastifyRequest, 'baseUrl'>, row: TimeOffTypeRow) {
  return {
    ...serializeTimeOffType(request, row),
    allow_negative: row.allow_negative === 1,
    ...overdraftOf(row),
    default_day_hours: Number(row.default_day_hours),
    counts_as_worked: row.counts_as_worked === 1,
    callback_exclusion_hours: Number(row.callback_exclusion_hours),
  };
}
