import { utcToLocal } from '../../core/time.js';
import type { VisualCycleResponse } from './schemas.js';
import type { VisualCycleRow } from './table.js';

/** `created_at` and `deleted_at` are local datetimes of the organization, as the sample shows. */
export function serializeVisualCycle(row: VisualCycleRow, tz: string): VisualCycleResponse {
  return {
    id: row.id,
    name: row.name,
    start: row.start,
    end: row.end,
    color: row.color,
    text_color: row.text_color,
    created_by: row.created_by,
    created_at: utcToLocal(row.created_at, tz),
    deleted_by: row.deleted_by,
    deleted_at: row.deleted_at ? utcToLocal(row.deleted_at, tz) : null,
  };
}
