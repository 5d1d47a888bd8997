import { utcToLocal } from '../../core/time.js';
import type { QualifierListItem, QualifierSingle } from './schemas.js';
import type { QualifierRow } from './table.js';

const localOrNull = (utc: string | null, tz: string) => (utc ? utcToLocal(utc, tz) : null);

/** `Captain [CPT]`, or the bare name when there is no shortcode. */
export function qualifierTitle(row: Pick<QualifierRow, 'name' | 'shortcode'>): string {
  return row.shortcode ? `${row.name} [${row.shortcode}]` : row.name;
}

/** What both forms of a qualifier start with. */
const qualifierBasics = (row: QualifierRow) => ({
  id: row.id,
  name: row.name,
  shortcode: row.shortcode,
  color: row.color,
  text_color: row.text_color,
});

export function serializeQualifierListItem(row: QualifierRow, tz: string): QualifierListItem {
  return {
    ...qualifierBasics(row),
    modified_by: row.modified_by,
    modified_on: localOrNull(row.modified_at, tz),
    partner_credential_id: row.partner_credential_id,
  };
}

export function serializeQualifierSingle(row: QualifierRow, tz: string): QualifierSingle {
  return {
    ...qualifierBasics(row),
    title_id: row.title_id,
    created_by: row.created_by,
    created_on: utcToLocal(row.created_at, tz),
    modified_by: row.modified_by,
    modified_on: localOrNull(row.modified_at, tz),
    deleted_at: localOrNull(row.deleted_at, tz),
    deleted_by: row.deleted_by,
    partner_credential_id: row.partner_credential_id,
  };
}
