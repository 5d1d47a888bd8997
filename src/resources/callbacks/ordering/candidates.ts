import type { Db } from '../../../core/db/transaction.js';
import { formatDate, hoursBetween, parseLocalDateTime, type Temporal } from '../../../core/time.js';
import { acceptedCallbacks, availabilityOf, lastForced, type Reason } from '../../../scheduling/index.js';
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
  /** every member's ordering inputs, in contact order (the decision record's) */
  inputs: OrderingInput[];
  /** the reason code (the availability reason's kind) of each skipped member */
  codes: Map<number, string>;
}

const startOfDay = (date: Temporal.PlainDate) => `${formatDate(date)} 00:00:00`;

/**
 * What orders one list member (stored with a callback's start record, so replay can order again):
 * callback hours charged on the list in the year before the callback (hours), the last offer and
 * acceptance on the list (rotating), the date of hire and name (seniority, ties) and list position.
 */
export interface OrderingInput {
  user_id: number;
  first_name: string;
  last_name: string;
  date_of_hire: string | null;
  list_position: number;
  hours_charged: number;
  /** local datetime of the last contact that used an opportunity on the list */
  last_offered: string | null;
  last_accepted: string | null;
  /** local datetime of the last time they were forced (forced hire), on any of their groups' forced lists */
  last_forced: string | null;
}

function byHireThenName(a: OrderingInput, b: OrderingInput): number {
  const hireA = a.date_of_hire ?? '9999-12-31';
  const hireB = b.date_of_hire ?? '9999-12-31';
  if (hireA !== hireB) return hireA < hireB ? -1 : 1;
  return a.last_name.localeCompare(b.last_name) || a.first_name.localeCompare(b.first_name) || a.user_id - b.user_id;
}

/**
 * Contact order of the list's members, a pure function of their inputs (start and replay call it):
 * - rotating (default): never contacted first in list order, then by oldest last contact on this list;
 * - hours: fewest callback hours accepted from this list in the past year first, ties by date of hire, then last name;
 * - seniority: earliest date of hire first, then last name.
 */
export function orderCandidates(ordering: CallbackOrdering, inputs: readonly OrderingInput[]): OrderingInput[] {
  if (ordering === 'seniority') return [...inputs].sort(byHireThenName);
  if (ordering === 'hours')
    return [...inputs].sort((a, b) => a.hours_charged - b.hours_charged || byHireThenName(a, b));
  return [...inputs].sort((a, b) => {
    const lastA = a.last_offered ?? '';
    const lastB = b.last_offered ?? '';
    if (lastA !== lastB) return lastA < lastB ? -1 : 1;
    return a.list_position - b.list_position || a.user_id - b.user_id;
  });
}

/**
 * The ordering inputs of the members from the database. `asOf` (replay): only contacts made before
 * then on other callbacks count, as when the callback `asOf.callbackId` started.
 */
export async function orderingInputs(
  db: Db,
  orgId: number,
  listId: number,
  members: ListMember[],
  callback: Span,
  timeZone: string,
  asOf?: { before: string; callbackId: number },
): Promise<OrderingInput[]> {
  const day = parseLocalDateTime(callback.start)!.toPlainDate();
  const [spans, contacted, forced] = await Promise.all([
    acceptedCallbacks(
      db,
      orgId,
      members.map((m) => m.id),
      { start: startOfDay(day.subtract({ years: 1 })), end: callback.start },
      { listId },
    ),
    lastContacts(db, orgId, listId, asOf),
    lastForced(
      db,
      orgId,
      members.map((m) => m.id),
    ),
  ]);
  const hours = new Map<number, number>();
  for (const span of spans) {
    hours.set(span.user_id, (hours.get(span.user_id) ?? 0) + hoursBetween(span.start, span.end, timeZone));
  }
  return members.map((m) => ({
    user_id: m.id,
    first_name: m.first_name,
    last_name: m.last_name,
    date_of_hire: m.date_of_hire,
    list_position: m.list_position,
    hours_charged: Math.round((hours.get(m.id) ?? 0) * 1000) / 1000,
    last_offered: contacted.get(m.id)?.offered ?? null,
    last_accepted: contacted.get(m.id)?.accepted ?? null,
    last_forced: forced.get(m.id) ?? null,
  }));
}

/** Qualifiers a candidate must hold (those the vacancy is short of), on the vacancy's date. */
export interface RequiredQualifiers {
  date: string;
  qualifiers: Array<{ id: number; shortcode: string }>;
}

/** Why each user may not take the callback (the first reason, with its kind: the decision records' reason code). */
export async function ineligibilityReasons(
  db: Db,
  orgId: number,
  list: ListLimitsRow,
  callback: Span & { assignmentId?: number | null },
  userIds: number[],
  timeZone: string,
  required?: RequiredQualifiers,
): Promise<Map<number, Reason | null>> {
  const all = await allIneligibilityReasons(db, orgId, list, callback, userIds, timeZone, required);
  return new Map(userIds.map((id) => [id, all.get(id)?.[0] ?? null]));
}

/** Every reason each user may not take the callback, in the engine's order (an override weighs them all). */
export async function allIneligibilityReasons(
  db: Db,
  orgId: number,
  list: ListLimitsRow,
  callback: Span & { assignmentId?: number | null },
  userIds: number[],
  timeZone: string,
  required?: RequiredQualifiers,
): Promise<Map<number, Reason[]>> {
  const needs = required && {
    date: required.date,
    qualifiers: required.qualifiers.map((q) => ({ id: q.id, label: q.shortcode })),
  };
  const { assignmentId, ...span } = callback;
  const request = { ...span, userIds, timezone: timeZone, needs, offer: { limits: list, seat: assignmentId } };
  const availability = await availabilityOf(db, orgId, request);
  return new Map(userIds.map((id) => [id, availability.get(id)?.reasons ?? []]));
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
  if (members.length === 0) return { userIds: [], skipped: [], inputs: [], codes: new Map() };
  const [inputs, reasons] = await Promise.all([
    orderingInputs(db, orgId, list.id, members, callback, timeZone),
    ineligibilityReasons(
      db,
      orgId,
      list,
      callback,
      members.map((m) => m.id),
      timeZone,
      required,
    ),
  ]);
  const ordered = orderCandidates(callback.ordering, inputs);
  const selection: CandidateSelection = { userIds: [], skipped: [], inputs: ordered, codes: new Map() };
  for (const member of ordered) {
    const reason = reasons.get(member.user_id);
    if (reason) {
      selection.skipped.push({ user_id: member.user_id, reason: reason.text });
      selection.codes.set(member.user_id, reason.kind);
    } else selection.userIds.push(member.user_id);
  }
  return selection;
}
