import type { FastifyRequest } from 'fastify';
import { href } from '../../core/pagination.js';
import type { WorkSubtypeRow, WorkTypeRow } from './table.js';

export function serializeWorkType(request: Pick<FastifyRequest, 'baseUrl'>, row: WorkTypeRow) {
  return {
    id: row.id,
    label: row.label,
    work_code: row.work_code,
    primary_color: row.primary_color,
    secondary_color: row.secondary_color,
    excludes_from_callback: Boolean(row.excludes_from_callback),
    position: row.position,
    href: href(request, `/work_types/${row.id}`),
  };
}

export function serializeWorkSubtype(row: WorkSubtypeRow) {
  return { id: row.id, work_type_id: row.work_type_id, label: row.label, work_code: row.work_code };
}
