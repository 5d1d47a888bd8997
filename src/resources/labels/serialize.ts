import type { LabelResponse } from './schemas.js';
import type { LabelRow } from './table.js';

export function serializeLabel(row: LabelRow): LabelResponse {
  return {
    id: String(row.id),
    label: row.label,
    color: row.color,
    text_color: row.text_color,
    position: String(row.position),
  };
}
