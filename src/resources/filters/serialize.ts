import { formatIsoOffset } from '../../core/time.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { FilterResponse, FilterSingleResponse } from './schemas.js';
import type { SpecialtyFilterRow } from './table.js';

type Creators = Map<number, Pick<UserRow, 'id' | 'first_name' | 'last_name'>>;

function creator(row: SpecialtyFilterRow, users: Creators) {
  const user = row.created_by === null ? undefined : users.get(row.created_by);
  return user ? { id: String(user.id), name: fullName(user) } : null;
}

/** `created_on` is written with the offset without a colon, as the spec says for filters. */
export function serializeFilter(row: SpecialtyFilterRow, users: Creators, tz: string): FilterResponse {
  return {
    id: String(row.id),
    label: row.label,
    created_on: formatIsoOffset(row.created_at, tz, false)!,
    user: creator(row, users),
  };
}

export function serializeFilterSingle(row: SpecialtyFilterRow, users: Creators, tz: string): FilterSingleResponse {
  return {
    id: String(row.id),
    label: row.label,
    created_on: formatIsoOffset(row.created_at, tz, false)!,
    deleted: row.deleted_at ? '1' : '0',
    user: creator(row, users),
  };
}
