import type { Db } from '../../core/db/transaction.js';
import { occurrencesInRange, type Occurrence } from './recurrence.js';
import { splitOccurrence, type Segment } from './segments.js';
import type { TimeOffRow } from './table.js';
import { workByUser } from './work.js';

export interface EntrySegment {
  entry: TimeOffRow;
  segment: Segment;
}

const byStartThenId = (a: EntrySegment, b: EntrySegment) =>
  a.segment.start < b.segment.start ? -1 : a.segment.start > b.segment.start ? 1 : a.entry.id - b.entry.id;

/**
 * Segments of the entries' occurrences overlapping [rangeStart, rangeEnd), each occurrence split
 * along its user's work. One work lookup for all users over the span the occurrences cover.
 */
export async function segmentsOf(db: Db, orgId: number, entries: TimeOffRow[], rangeStart: string, rangeEnd: string, timeZone: string): Promise<EntrySegment[]> {
  const occurrences: Array<{ entry: TimeOffRow; occurrence: Occurrence }> = entries.flatMap((entry) =>
    occurrencesInRange(entry, rangeStart, rangeEnd).map((occurrence) => ({ entry, occurrence })),
  );
  if (occurrences.length === 0) return [];
  const span = {
    start: occurrences.reduce((min, o) => (o.occurrence.start < min ? o.occurrence.start : min), occurrences[0].occurrence.start),
    end: occurrences.reduce((max, o) => (o.occurrence.end > max ? o.occurrence.end : max), occurrences[0].occurrence.end),
    userIds: [...new Set(occurrences.map((o) => o.entry.user_id))],
  };
  const work = await workByUser(db, orgId, span);
  return occurrences
    .flatMap(({ entry, occurrence }) => splitOccurrence(occurrence, work.get(entry.user_id) ?? [], timeZone).map((segment) => ({ entry, segment })))
    .sort(byStartThenId);
}

/** Hours an entry takes (its segments' full lengths): what approval deducts from a bank. */
export async function hoursOfEntry(db: Db, orgId: number, entry: TimeOffRow, timeZone: string): Promise<number> {
  if (entry.rrule) return 0;
  const segments = await segmentsOf(db, orgId, [entry], entry.start, entry.end, timeZone);
  return segments.reduce((sum, { segment }) => sum + segment.length, 0);
}
