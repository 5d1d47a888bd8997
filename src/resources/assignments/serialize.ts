import type { FastifyRequest } from 'fastify';
import { userRefStrId } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import type { QualifierNeeded } from './repository.js';
import { LOCATION_FIELDS, type AssignmentResponse, type LocationInput } from './schemas.js';
import type { AssignmentGroupRow, AssignmentRow } from './table.js';

type Location = NonNullable<AssignmentResponse['location']>;

/** Stored form of a location: every field present, strings or null; null when nothing is set. */
export function locationToStore(location: LocationInput | null | undefined): string | null {
  if (!location) return null;
  const entries = LOCATION_FIELDS.map((field) => {
    const value = location[field];
    return [field, value === undefined || value === null || value === '' ? null : String(value)] as const;
  });
  if (entries.every(([, value]) => value === null)) return null;
  return JSON.stringify(Object.fromEntries(entries));
}

function locationOf(stored: string | null): Location | null {
  if (!stored) return null;
  const parsed = JSON.parse(stored) as Record<string, string | null>;
  return Object.fromEntries(LOCATION_FIELDS.map((field) => [field, parsed[field] ?? null])) as Location;
}

/** The assignment as GET /assignments lists it; `single` shows `date` as a datetime, as GET /assignments/{id} does. */
export function serializeAssignment(
  row: AssignmentRow,
  qualifiersNeeded: QualifierNeeded[],
  single = false,
): AssignmentResponse {
  return {
    id: row.id,
    position: row.position,
    name: row.name,
    date: single ? `${row.date} 00:00:00` : row.date,
    start: row.start,
    end: row.end,
    positions_to_fill: row.positions_to_fill,
    is_work_shift: Boolean(row.is_work_shift),
    self_scheduling: Boolean(row.self_scheduling),
    self_scheduling_requires_approval: Boolean(row.self_scheduling_requires_approval),
    service_eligible: Boolean(row.service_eligible),
    hide_open_slots: Boolean(row.hide_open_slots),
    color: row.color,
    location: locationOf(row.location),
    rrule: row.rrule,
    until: row.until_date,
    notes: row.notes,
    qualifiers_needed: qualifiersNeeded,
  };
}

export function serializeGroupLabel(row: AssignmentGroupRow) {
  return { id: String(row.id), name: row.name, color: row.color };
}

export function serializeAdmin(request: Pick<FastifyRequest, 'baseUrl'>, user: UserRow) {
  return userRefStrId(request, user);
}
