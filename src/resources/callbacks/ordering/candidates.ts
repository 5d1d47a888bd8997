import type { Db } from '../../../core/db/transaction.js';
import { formatDate, hoursBetween, parseLocalDateTime, type Temporal } from '../../../core/time.js';
import { acceptedCallbacks, availabilityOf } from '../../../scheduling/index.js';
import { listMembers, type ListLimitsRow, type ListMember } from '../../lists/repository.js';
import { lastContacts } from './repository.js';

/** The orders a callback may offer its list in (`ordering`). */
export type CallbackOrdering = 'rotating' | 'hours' | 'seniority';

/** A span of local datetimes [start, end). */
interface Span {
  start: string;
  end: string;
}

export interface SkippedCandidate {
  user_id: number;
  reason: string;
}

export interface CandidateSelection {
  /** eligible user ids in contact order */
  userIds: number[];
  skipped: SkippedCandidate[];
}

const startOfDay = (date: Temporal.PlainDate) => `${formatDate(date)} 00:00:00`;

function byHireThenName(a: ListMember, b: ListMember): number {
  const hireA = a.date_of_hire ?? '9999-12-31';
  const hireB = b.date_of_hire ?? '9999-12-31';
  if (hireA !== hireB) return hireA < hireB ? -1 : 1;
  return a.last_name.localeCompare(b.last_name) || a.first_name.localeCompare(b.first_name) || a.id - b.id;
}

/**
 * Contact order of the list's members:
 * - rotating (default): never contacted first in list order, then by oldest last contact on this list;
 * - hours: fewest callback hours accepted from this list in the past year first, ties by date of hire, then last name;
 * - seniority: earliest date of hire first, then last name.
 */
async function orderMembers(
  db: Db,
  orgId: number,
  listId: number,
  members: ListMember[],
  ordering: CallbackOrdering,
  callback: Span,
  timeZone: string,
) {
  if (ordering === 'seniority') return [...members].sort(byHireThenName);
  if (ordering === 'hours') {
    const day = parseLocalDateTime(callback.start)!.toPlainDate();
    const spans = await acceptedCallbacks(
      db,
      orgId,
      members.map((m) => m.id),
      { start: startOfDay(day.subtract({ years: 1 })), end: callback.start },
      { listId },
    );
    const hours = new Map<number, number>();
    for (const span of spans) {
      hours.set(span.user_id, (hours.get(span.user_id) ?? 0) + hoursBetween(span.start, span.end, timeZone));
    }
    return [...members].sort((a, b) => (hours.get(a.id) ?? 0) - (hours.get(b.id) ?? 0) || byHireThenName(a, b));
  }
  const contacted = await lastContacts(db, orgId, listId);
  return [...members].sort((a, b) => {
    const lastA = contacted.get(a.id) ?? '';
    const lastB = contacted.get(b.id) ?? '';
    if (lastA !== lastB) return lastA < lastB ? -1 : 1;
    return a.list_position - b.list_position || a.id - b.id;
  });
}

/** Qualifiers a candidate must hold (those the vacancy is short of), on the vacancy's date. */
export interface RequiredQualifiers {
  date: string;
  qualifiers: Array<{ id: number; shortcode: string }>;
}

/**
 * Why each user may not take the callback span (null when eligible): the first reason of the
 * scheduling engine's availability for an offer of the list's hours (docs/schedule.md, Availability).
 */
export async function ineligibilityOf(
  db: Db,
  orgId: number,
  list: ListLimitsRow,
  callback: Span & { assignmentId?: number | null },
  userIds: number[],
  timeZone: string,
  required?: RequiredQualifiers,
): Promise<Map<number, string | null>> {
  const needs = required && {
    date: required.date,
    qualifiers: required.qualifiers.map((q) => ({ id: q.id, label: q.shortcode })),
  };
  const { assignmentId, ...span } = callback;
  const request = { ...span, userIds, timezone: timeZone, needs, offer: { limits: list, seat: assignmentId } };
  const availability = await availabilityOf(db, orgId, request);
  return new Map(userIds.map((id) => [id, availability.get(id)?.reasons[0]?.text ?? null]));
}

/** The list's members who may be offered the callback, in contact order, and those skipped with the reason. */
export async function selectCandidates(
  db: Db,
  orgId: number,
  list: ListLimitsRow,
  /** with the assignment whose open seat it fills, if any */
  callback: Span & { ordering: CallbackOrdering; assignmentId?: number | null },
  timeZone: string,
  required?: RequiredQualifiers,
  /** the people to choose from when not the list's members */
  people?: ListMember[],
): Promise<CandidateSelection> {
  const members = people ?? (await listMembers(db, orgId, list.id));
  if (members.length === 0) return { userIds: [], skipped: [] };
  const [ordered, reasons] = await Promise.all([
    orderMembers(db, orgId, list.id, members, callback.ordering, callback, timeZone),
    ineligibilityOf(
      db,
      orgId,
      list,
      callback,
      members.map((m) => m.id),
      timeZone,
      required,
    ),
  ]);
  const selection: CandidateSelection = { userIds: [], skipped: [] };
  for (const member of ordered) {
    const reason = reasons.get(member.id);
    if (reason) selection.skipped.push({ user_id: member.id, reason });
    else selection.userIds.push(member.id);
  }
  return selection;
}
