import type { Db } from '../core/db/transaction.js';
import { groupBy, withEntries } from '../core/maps.js';
import type { WorkTypeRow } from '../resources/work-types/table.js';
import {
  tagsOfShifts,
  tagsOfUsersShifts,
  workTypesByIds,
  type LabelOfShift,
  type QualifierOfShift,
  type ShiftTags,
} from './reads.js';
import type { WorkedPiece } from './worked.js';

/*
 * What a period's worked pieces name besides users, read for GET /schedule's rendering and kept
 * with the engine's facts in the engine cache (period-days.ts, keptPeriodDays; cache.ts).
 */

/** What the shifts name besides users: work types with their subtypes, each shift's labels and qualifiers. */
export interface Lookups {
  workTypes: Map<number, WorkTypeRow>;
  subtypesByType: Map<number, Array<{ id: number; label: string }>>;
  labelsByShift: Map<number, LabelOfShift[]>;
  qualifiersByShift: Map<number, QualifierOfShift[]>;
}

/** Labels and qualifiers of shifts read ahead, with the ids of every shift they cover. */
type EarlyTags = Promise<ShiftTags & { shiftIds: Set<number> }>;

/**
 * The lookups of the pieces, over `previous` (only what it lacks is read; without it, always two
 * statements). `early`: the tags read ahead for these pieces; read again only if it lacks a shift.
 */
export async function lookupsOf(
  db: Db,
  orgId: number,
  pieces: WorkedPiece[],
  previous?: Lookups,
  early?: EarlyTags,
): Promise<Lookups> {
  const shiftIds = pieces.flatMap((p) => (p.shift_id === null ? [] : [p.shift_id]));
  const typeIds = pieces.map((p) => p.work_type_id).filter((id) => !previous?.workTypes.has(id));
  const tagsOf = async () => {
    const read = await early;
    if (!read || !shiftIds.every((id) => read.shiftIds.has(id))) return tagsOfShifts(db, orgId, shiftIds);
    const wanted = <T>(map: Map<number, T>) => [...map].filter(([id]) => shiftIds.includes(id));
    return { labels: wanted(read.labels), qualifiers: wanted(read.qualifiers) };
  };
  const [types, tags] = await Promise.all([
    previous && !typeIds.length ? undefined : workTypesByIds(db, orgId, typeIds),
    previous && !shiftIds.length ? undefined : tagsOf(),
  ]);
  const subtypes = groupBy(types?.subtypes ?? [], (t) => [t.work_type_id]);
  return {
    workTypes: withEntries(previous?.workTypes ?? new Map(), types?.types ?? []),
    subtypesByType: withEntries(previous?.subtypesByType ?? new Map(), subtypes),
    labelsByShift: withEntries(previous?.labelsByShift ?? new Map(), tags?.labels ?? [], shiftIds),
    qualifiersByShift: withEntries(previous?.qualifiersByShift ?? new Map(), tags?.qualifiers ?? [], shiftIds),
  };
}

/**
 * The lookups of the users' pieces over `previous`, for a patch of their days: the tags of the
 * users' shifts in the span are read at once, beside the engine's reads of the users (one round
 * trip less on PostgreSQL), rather than once the pieces are known.
 */
export function lookupsOfUsers(
  db: Db,
  orgId: number,
  userIds: number[],
  span: { start: string; end: string },
  previous: Lookups,
): (pieces: WorkedPiece[]) => Promise<Lookups> {
  const early = tagsOfUsersShifts(db, orgId, userIds, span);
  early.catch(() => undefined); // awaited by the lookups; a failure of the engine's reads comes first
  return (pieces) => lookupsOf(db, orgId, pieces, previous, early);
}
