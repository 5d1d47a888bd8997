import { lockRowsThenUsers, transition } from '../../core/db/locks.js';
import { orgColumns } from '../../core/db/org-rows.js';
import type { AuthContext } from '../../core/auth/context.js';
import { writeLog, logAction } from '../../core/audit.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams } from '../../core/errors.js';
import { assertPeriod, hoursBetween, normalizeLocalDateTime, nowLocal, nowUtc } from '../../core/time.js';
import {
  availabilityOf,
  expandWork,
  refusalMessage,
  timezoneOf,
  type Reason,
  type WorkItem,
} from '../../scheduling/index.js';
import { reconcileBank } from '../accruals/reconcile.js';
import { overrideFatigue } from '../fatigue-rules/repository.js';
import { assertUsersExist, findUserOrInvalid } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import type { UserRow } from '../users/table.js';
import { assertOwedHours, assertTradeCount } from './limits.js';
import { requiredQualifiers } from './qualifiers.js';
import { defaultWorkTypeId } from '../work-types/repository.js';
import { findTradeUser, insertTrade, upsertTradeUser } from './repository.js';
import {
  cutShift,
  placeShift,
  placedShiftIds,
  reassignPlaced,
  removePlacedOccurrence,
  undoPlacements,
} from './placements.js';
import type { CreateTradeBody, TradeActionBody } from './schemas.js';
import type { StoredTradeStatus, TradeRow } from './table.js';

export type TradeStatus = StoredTradeStatus | 'expired';

interface Span {
  start: string;
  end: string;
}

const OPEN: ReadonlySet<StoredTradeStatus> = new Set(['pending', 'accepted', 'approved']);

/**
 * pending → accepted (a user accepts) → filled (an admin approves; the work moves);
 * pending → approved (an admin pre-approves) → filled (the first acceptance);
 * any open state → cancelled (the requester) or denied (an admin); an open trade whose start has
 * passed reads as expired.
 */
export function tradeStatus(trade: TradeRow, localNow: string): TradeStatus {
  if (OPEN.has(trade.status) && trade.start <= localNow) return 'expired';
  return trade.status;
}

function spanOf(start: string, end: string, field = ''): Span {
  const span = { start: normalizeLocalDateTime(start), end: normalizeLocalDateTime(end) };
  assertPeriod(span.start, span.end, {
    fields: { start: `${field}start`, end: `${field}end` },
    within: `${field}period`,
  });
  return span;
}

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

/** A piece of the user's work a trade moves: the scheduled item, and the part of it the trade covers. */
interface Move {
  item: WorkItem;
  part: Span;
}

const onTheMinute = (local: string) => local.endsWith(':00');

/**
 * The rules of a part-shift trade (a span that cuts a piece of work), one 422 naming each failing
 * field: the span lies inside one shift of the user, each end on the minute, at least one hour long.
 */
async function checkPartShift(db: Db, orgId: number, user: UserRow, span: Span, work: WorkItem[], field: string) {
  const [shift] = work;
  const works = `${fullName(user)} works ${shift!.start} to ${shift!.end}`;
  if (work.length > 1)
    throw invalidParams(
      `A part-shift trade lies inside one shift: the ${field}start and ${field}end reach ` +
        `${work.length} shifts of ${fullName(user)} (${work.map((w) => `${w.start} to ${w.end}`).join(', ')}).`,
    );
  const messages: string[] = [];
  if (span.start < shift!.start)
    messages.push(`The ${field}start ${span.start} lies outside the shift the trade cuts: ${works}.`);
  if (span.end > shift!.end)
    messages.push(`The ${field}end ${span.end} lies outside the shift the trade cuts: ${works}.`);
  if (!onTheMinute(span.start)) messages.push(`The ${field}start of a part-shift trade must be on the minute.`);
  if (!onTheMinute(span.end)) messages.push(`The ${field}end of a part-shift trade must be on the minute.`);
  if (messages.length === 0 && hoursBetween(span.start, span.end, await timezoneOf(db, orgId)) < 1)
    messages.push(`The ${field}period of a part-shift trade must be at least one hour: ${span.start} to ${span.end}.`);
  if (messages.length > 0) throw invalidParams(messages);
}

/**
 * The user's work the span covers. Whole shifts inside the span move whole; a span that cuts a
 * shift trades only part of it (checkPartShift). The span may hold no work: the trade then records
 * hours agreed outside the schedule and filling it moves nothing.
 */
async function workToMove(db: Db, orgId: number, user: UserRow, span: Span, field = ''): Promise<Move[]> {
  const work = (await expandWork(db, orgId, { start: span.start, end: span.end, userIds: [user.id] })).filter(
    (item) => item.user_id === user.id && overlaps(item, span),
  );
  if (work.some((item) => item.start < span.start || item.end > span.end))
    await checkPartShift(db, orgId, user, span, work, field);
  return work.map((item) => ({
    item,
    part: { start: item.start > span.start ? item.start : span.start, end: item.end < span.end ? item.end : span.end },
  }));
}

/**
 * Refuses a taker who may not work the span (the engine's availability: already working, on
 * approved time off, or lacking the qualifiers the work needs).
 */
async function assertCanTake(
  db: Db,
  orgId: number,
  giver: UserRow,
  taker: UserRow,
  span: Span,
  moves: Move[],
  override: string | undefined,
): Promise<FatigueOverride[]> {
  const needs = await requiredQualifiers(
    db,
    orgId,
    giver.id,
    moves.map((move) => move.item),
  );
  const request = { ...span, userIds: [taker.id], timezone: await timezoneOf(db, orgId), needs };
  const { reasons } = (await availabilityOf(db, orgId, request)).get(taker.id)!;
  // an admin's override_reason goes over the fatigue rules only; every other reason still refuses
  const [reason] = override?.trim() ? reasons.filter((r) => r.kind !== 'fatigue') : reasons;
  if (reason) throw invalidParams(refusalMessage(fullName(taker), 'this trade', reason));
  const fatigue = reasons.filter((r) => r.kind === 'fatigue');
  return fatigue.length ? [{ user: taker, reasons: fatigue }] : [];
}

/** A taker who goes over the fatigue rules on an admin's override_reason, logged once the trade is known. */
interface FatigueOverride {
  user: UserRow;
  reasons: Reason[];
}

/** Logs each override (`fatigue.overridden` on the trade, by its approver); a member's session may not override. */
async function logOverrides(
  trx: Db,
  auth: AuthContext,
  overrides: FatigueOverride[],
  override: string | undefined,
  trade: Pick<TradeRow, 'id' | 'approved_by' | 'approving_user_id'>,
) {
  for (const { user, reasons } of overrides)
    await overrideFatigue(trx, auth, reasons, {
      override,
      refusal: (reason) => invalidParams(refusalMessage(fullName(user), 'this trade', reason)),
      who: `${fullName(user)} (trade #${trade.id})`,
      entity: { type: 'trade', id: trade.id },
      actorUserId: trade.approved_by ?? trade.approving_user_id,
    });
}

/**
 * Locks what a trade may move, in the one order of writes to schedules (lockRowsThenUsers): the
 * one-off shifts of its users in its spans and those it placed, then the users. A shift edit or
 * delete racing the trade queues on the same locks rather than wait for it in a circle.
 */
async function lockTradeWork(db: Db, orgId: number, users: UserRow[], spans: Span[], tradeId?: number) {
  const userIds = users.map((u) => u.id);
  const shiftIds = async () => {
    const inSpans = await orgColumns(db, 'shift', orgId, ['id'])
      .where('user_id', 'in', userIds)
      .where((eb) => eb.or(spans.map((s) => eb.and([eb('start', '<', s.end), eb('end', '>', s.start)]))))
      .execute();
    const placed = tradeId === undefined ? [] : [...(await placedShiftIds(db, orgId, tradeId))];
    return [...inSpans.map((row) => row.id), ...placed];
  };
  await lockRowsThenUsers(db, { table: 'shift', orgId }, shiftIds, () => userIds);
}

/** Checks both directions of the trade (and the swap, when there is one) for this taker. */
async function checkTrade(
  db: Db,
  orgId: number,
  requester: UserRow,
  taker: UserRow | null,
  trade: { span: Span; swap: Span | null },
  override?: string,
): Promise<FatigueOverride[]> {
  // both users' schedules stay as checked until the work has moved (src/core/db/locks.ts)
  await lockTradeWork(
    db,
    orgId,
    taker ? [requester, taker] : [requester],
    trade.swap ? [trade.span, trade.swap] : [trade.span],
  );
  const work = await workToMove(db, orgId, requester, trade.span);
  if (!taker) return [];
  if (taker.id === requester.id) throw invalidParams('The accepting user must differ from the requesting user.');
  const overrides = await assertCanTake(db, orgId, requester, taker, trade.span, work, override);
  if (trade.swap) {
    const swapWork = await workToMove(db, orgId, taker, trade.swap, 'swap ');
    overrides.push(...(await assertCanTake(db, orgId, taker, requester, trade.swap, swapWork, override)));
  }
  return overrides;
}

function swapOf(body: { swap_start?: string | null; swap_end?: string | null }): Span | null {
  if (!body.swap_start && !body.swap_end) return null;
  if (!body.swap_start || !body.swap_end) throw invalidParams('The swap start and swap end must be sent together.');
  return spanOf(body.swap_start, body.swap_end, 'swap ');
}

const spansOf = (trade: TradeRow) => ({
  span: { start: trade.start, end: trade.end },
  swap: trade.swap_start && trade.swap_end ? { start: trade.swap_start, end: trade.swap_end } : null,
});

/**
 * The rules on a new trade's fields, one 422 naming every failing field (checkAll). A field left
 * undefined (refused by the schema: the route's ruleChecks) is not checked.
 */
export function checkTradeFields(trx: Db, orgId: number, body: Partial<CreateTradeBody>) {
  const { requesting_user: requesterId, approving_user_id: approverId, start, end } = body;
  return checkAll([
    () => (requesterId !== undefined ? findUserOrInvalid(trx, orgId, requesterId, 'requesting user') : undefined),
    () => (approverId !== undefined ? findUserOrInvalid(trx, orgId, approverId, 'approving user id') : undefined),
    () => (body.accepting_user_id ? findUserOrInvalid(trx, orgId, body.accepting_user_id, 'accepting user id') : null),
    () => (start !== undefined && end !== undefined ? spanOf(start, end) : undefined),
    () => {
      const swap = swapOf(body);
      if (swap && !body.accepting_user_id) throw invalidParams('A swap needs the accepting user id.');
      return swap;
    },
    () => assertUsersExist(trx, orgId, body.offered_user_ids ?? [], 'offered user ids'),
  ] as const);
}

export async function createTrade(
  trx: Db,
  auth: AuthContext,
  body: CreateTradeBody,
): Promise<{ id: number; status: TradeStatus }> {
  const { orgId } = auth;
  // the schedules are checked once every field is sound
  const [foundRequester, foundApprover, taker, foundSpan, swap] = await checkTradeFields(trx, orgId, body);
  const [requester, approver, span] = [foundRequester!, foundApprover!, foundSpan!];
  // approved at once, it would read as expired: refused before anything is written
  if (body.approve && span.start <= nowLocal(auth.timezone))
    throw invalidParams(`A trade whose start has passed cannot be approved: it starts ${span.start}.`);
  const overrides = await checkTrade(trx, orgId, requester, taker, { span, swap }, body.override_reason);

  const now = nowUtc();
  const status: StoredTradeStatus = taker ? 'accepted' : 'pending';
  const values = {
    organization_id: orgId,
    requesting_user_id: requester.id,
    accepting_user_id: taker?.id ?? null,
    approving_user_id: approver.id,
    approved_by: null,
    start: span.start,
    end: span.end,
    swap_start: swap?.start ?? null,
    swap_end: swap?.end ?? null,
    status,
    request_date: now,
    accepted_at: taker ? now : null,
    approved_at: null,
    filled_at: null,
    notes: body.notes ?? null,
    deleted_at: null,
    updated_at: now,
  };
  const id = await insertTrade(trx, values);
  // approved at once, the fill checks and logs them
  if (!body.approve) await logOverrides(trx, auth, overrides, body.override_reason, { ...values, id });
  // the department's limits, under both users' locks (checkTrade): one winner for the last allowed trade
  const participants = taker ? [requester, taker] : [requester];
  await assertTradeCount(trx, auth, { ...values, id }, participants);
  await assertOwedHours(trx, auth, { ...values, id }, participants);
  for (const userId of new Set(body.offered_user_ids ?? []))
    await upsertTradeUser(trx, orgId, id, userId, 'offered', now);
  if (taker) await upsertTradeUser(trx, orgId, id, taker.id, 'accepted', now);
  await logAction(trx, auth, 'trade.requested', id, {
    description:
      `requested a trade of ${span.start} to ` +
      `${span.end}${taker ? ` with ${fullName(taker)}` : ''}${swap ? ` (swap ${swap.start} to ${swap.end})` : ''}.`,
    actorUserId: requester.id,
    after: body,
  });
  // approved in the same transaction: a refusal (or any failure) while the work moves writes nothing
  if (body.approve)
    return {
      id,
      status: await actOnTrade(trx, auth, id, {
        action: 'approve',
        admin_id: approver.id,
        override_reason: body.override_reason,
      }),
    };
  return { id, status };
}

/** The part of an item's break inside a span of it (none when the break lies outside). */
function breakWithin(item: WorkItem, span: Span) {
  if (!item.break_start || !item.break_end || item.break_end <= span.start || item.break_start >= span.end)
    return { break_start: null, break_end: null };
  return {
    break_start: item.break_start > span.start ? item.break_start : span.start,
    break_end: item.break_end < span.end ? item.break_end : span.end,
  };
}

/**
 * Moves each piece of work from one user to the other, recording every change (placements.ts):
 * a whole one-off shift changes hands; a whole occurrence is taken off and the taker gets a one-off
 * shift of its hours; a part-traded piece leaves the giver the hours not traded (one-off shifts, or
 * the one-off shift cut to them) and the taker gets a one-off shift of the traded part.
 */
async function moveWork(trx: Db, auth: AuthContext, trade: TradeRow, from: UserRow, to: UserRow, span: Span) {
  const { orgId } = auth;
  const moves = await workToMove(trx, orgId, from, span);
  const workTypeId = await defaultWorkTypeId(trx, orgId, 'Trade');
  const notes = `Trade #${trade.id}`;
  for (const { item, part } of moves) {
    const whole = part.start === item.start && part.end === item.end;
    if (whole && !item.recurring && item.shift_id) {
      await reassignPlaced(trx, orgId, trade.id, item, to.id);
      continue;
    }
    const rest = [
      { start: item.start, end: part.start },
      { start: part.end, end: item.end },
    ].filter((r) => r.start < r.end);
    const keep = (r: Span) => ({ ...r, ...breakWithin(item, r), hold_over: r.end === item.end ? item.hold_over : 0 });
    const [first, ...others] = item.recurring ? [undefined, ...rest] : rest;
    if (item.recurring) await removePlacedOccurrence(trx, orgId, trade.id, item);
    else await cutShift(trx, orgId, trade.id, item, keep(first!));
    for (const r of others)
      await placeShift(trx, orgId, trade.id, {
        assignment_id: item.assignment_id,
        user_id: from.id,
        date: item.date,
        ...keep(r!),
        work_type_id: item.work_type_id,
        work_subtype_id: item.work_subtype_id,
        notes: `${notes}: the hours not traded`,
        from_callback: null,
        traded_with: null,
        scheduled_by: item.scheduled_by,
      });
    await placeShift(trx, orgId, trade.id, {
      assignment_id: item.assignment_id,
      user_id: to.id,
      date: item.date,
      start: part.start,
      end: part.end,
      ...(whole ? {} : breakWithin(item, part)),
      work_type_id: workTypeId,
      work_subtype_id: null,
      notes,
      from_callback: null,
      traded_with: from.id,
      scheduled_by: trade.approved_by,
    });
  }
}

/**
 * Before a filled trade's work moves back: each user who gets hours back must not have taken other
 * work in them since (the engine's availability; the trade's own placements aside).
 */
async function assertCanTakeBack(trx: Db, auth: AuthContext, trade: TradeRow, user: UserRow, span: Span) {
  const placed = await placedShiftIds(trx, auth.orgId, trade.id);
  const request = {
    ...span,
    userIds: [user.id],
    timezone: auth.timezone,
    except: (item: WorkItem) => item.shift_id !== null && placed.has(item.shift_id),
  };
  const busy = (await availabilityOf(trx, auth.orgId, request)).get(user.id)!.reasons.find((r) => r.kind === 'working');
  if (busy) throw invalidParams(refusalMessage(fullName(user), `back the hours of trade #${trade.id}`, busy));
}

/** Moves a filled trade's work back (cancel, or edit before it moves again), under both users' locks. */
async function unfill(trx: Db, auth: AuthContext, trade: TradeRow, requester: UserRow) {
  const taker = await findUserOrInvalid(trx, auth.orgId, trade.accepting_user_id!, 'accepting user id');
  const spans = spansOf(trade);
  await lockTradeWork(
    trx,
    auth.orgId,
    [requester, taker],
    spans.swap ? [spans.span, spans.swap] : [spans.span],
    trade.id,
  );
  await assertCanTakeBack(trx, auth, trade, requester, spans.span);
  if (spans.swap) await assertCanTakeBack(trx, auth, trade, taker, spans.swap);
  await undoPlacements(trx, auth.orgId, trade.id);
}

async function fill(
  trx: Db,
  auth: AuthContext,
  trade: TradeRow,
  requester: UserRow,
  taker: UserRow,
  override: string | undefined,
) {
  const spans = spansOf(trade);
  await logOverrides(trx, auth, await checkTrade(trx, auth.orgId, requester, taker, spans, override), override, trade);
  await assertOwedHours(trx, auth, trade, [requester, taker]);
  await moveWork(trx, auth, trade, requester, taker, spans.span);
  if (spans.swap) await moveWork(trx, auth, trade, taker, requester, spans.swap);
}

function requireUser(body: TradeActionBody): number {
  if (!body.user_id) throw invalidParams(`The user id field is required to ${body.action} a trade.`);
  return body.user_id;
}

interface ActionContext {
  trx: Db;
  auth: AuthContext;
  trade: TradeRow;
  requester: UserRow;
  body: TradeActionBody;
  now: string;
}

/** What an action did: the acting user, the next status and the columns it changes. */
interface ActionOutcome {
  actor: UserRow;
  next: StoredTradeStatus;
  changes: Partial<TradeRow>;
}

async function accept({ trx, auth, trade, requester, body, now }: ActionContext): Promise<ActionOutcome> {
  const actor = await findUserOrInvalid(trx, auth.orgId, requireUser(body));
  if (trade.status === 'accepted') throw invalidParams(`Trade #${trade.id} has already been accepted.`);
  const changes: Partial<TradeRow> = { accepting_user_id: actor.id, accepted_at: now };
  let next: StoredTradeStatus = 'accepted';
  if (trade.status === 'approved') {
    await fill(trx, auth, { ...trade, accepting_user_id: actor.id }, requester, actor, body.override_reason);
    Object.assign(changes, { filled_at: now });
    next = 'filled';
  } else {
    const overrides = await checkTrade(trx, auth.orgId, requester, actor, spansOf(trade), body.override_reason);
    await logOverrides(trx, auth, overrides, body.override_reason, trade);
    await assertOwedHours(trx, auth, { ...trade, accepting_user_id: actor.id }, [requester, actor]);
  }
  await assertTradeCount(trx, auth, trade, [actor]);
  await upsertTradeUser(trx, auth.orgId, trade.id, actor.id, 'accepted', now);
  return { actor, next, changes };
}

async function decline({ trx, auth, trade, body, now }: ActionContext): Promise<ActionOutcome> {
  const actor = await findUserOrInvalid(trx, auth.orgId, requireUser(body));
  // read under the trade's lock: a user declines once, so a repeated decline is no second transition
  if ((await findTradeUser(trx, auth.orgId, trade.id, actor.id))?.status === 'declined')
    throw invalidParams(`${fullName(actor)} has already declined trade #${trade.id}.`);
  await upsertTradeUser(trx, auth.orgId, trade.id, actor.id, 'declined', now);
  if (actor.id !== trade.accepting_user_id) return { actor, next: trade.status, changes: {} };
  return { actor, next: 'pending', changes: { accepting_user_id: null, accepted_at: null } };
}

async function approve({ trx, auth, trade, requester, body, now }: ActionContext): Promise<ActionOutcome> {
  const actor = await findUserOrInvalid(trx, auth.orgId, body.admin_id ?? trade.approving_user_id, 'admin id');
  if (trade.status === 'approved') throw invalidParams(`Trade #${trade.id} has already been approved.`);
  const changes: Partial<TradeRow> = { approved_by: actor.id, approved_at: now };
  if (trade.status !== 'accepted' || trade.accepting_user_id === null) return { actor, next: 'approved', changes };
  const taker = await findUserOrInvalid(trx, auth.orgId, trade.accepting_user_id, 'accepting user id');
  await fill(trx, auth, { ...trade, approved_by: actor.id }, requester, taker, body.override_reason);
  return { actor, next: 'filled', changes: { ...changes, filled_at: now } };
}

async function deny({ trx, auth, trade, body }: ActionContext): Promise<ActionOutcome> {
  const actor = await findUserOrInvalid(trx, auth.orgId, body.admin_id ?? trade.approving_user_id, 'admin id');
  return { actor, next: 'denied', changes: { approved_by: actor.id } };
}

async function cancel({ trx, auth, trade, requester, body }: ActionContext): Promise<ActionOutcome> {
  const actor = await findUserOrInvalid(trx, auth.orgId, body.user_id ?? trade.requesting_user_id);
  if (trade.status === 'filled') await unfill(trx, auth, trade, requester);
  return { actor, next: 'cancelled', changes: {} };
}

/**
 * Edits an open trade before it starts (an expired one is refused with the other actions): new
 * hours, swap hours or notes, checked again as a new trade would be (the users' work and
 * availability, the department's limits). The status stays; the log keeps the terms before and after.
 */
async function edit({ trx, auth, trade, requester, body }: ActionContext): Promise<ActionOutcome> {
  const actor = await findUserOrInvalid(trx, auth.orgId, body.user_id ?? trade.requesting_user_id);
  const span = spanOf(body.start ?? trade.start, body.end ?? trade.end);
  if (span.start <= nowLocal(auth.timezone))
    throw invalidParams(`A trade cannot be moved to a start that has passed: ${span.start}.`);
  const swapSent = body.swap_start !== undefined || body.swap_end !== undefined;
  const swap = swapSent
    ? swapOf({ swap_start: body.swap_start ?? trade.swap_start, swap_end: body.swap_end ?? trade.swap_end })
    : spansOf(trade).swap;
  if (swap && trade.accepting_user_id === null) throw invalidParams('A swap needs the accepting user id.');
  const taker =
    trade.accepting_user_id === null
      ? null
      : await findUserOrInvalid(trx, auth.orgId, trade.accepting_user_id, 'accepting user id');
  // a filled trade's work moves back, then moves again under the new terms (one transaction): what
  // both may touch is locked first, before any user's lock (lockTradeWork)
  const old = spansOf(trade);
  const spans = [old.span, ...(old.swap ? [old.swap] : []), span, ...(swap ? [swap] : [])];
  await lockTradeWork(trx, auth.orgId, taker ? [requester, taker] : [requester], spans, trade.id);
  if (trade.status === 'filled') await unfill(trx, auth, trade, requester);
  const overrides = await checkTrade(trx, auth.orgId, requester, taker, { span, swap }, body.override_reason);
  await logOverrides(trx, auth, overrides, body.override_reason, trade);
  const changes: Partial<TradeRow> = {
    start: span.start,
    end: span.end,
    swap_start: swap?.start ?? null,
    swap_end: swap?.end ?? null,
    ...(body.notes !== undefined ? { notes: body.notes } : {}),
  };
  const edited = { ...trade, ...changes };
  const participants = taker ? [requester, taker] : [requester];
  await assertTradeCount(trx, auth, edited, participants);
  await assertOwedHours(trx, auth, edited, participants);
  if (trade.status === 'filled') {
    await moveWork(trx, auth, edited, requester, taker!, span);
    if (swap) await moveWork(trx, auth, edited, taker!, requester, swap);
  }
  return { actor, next: trade.status, changes };
}

/** What may still be done to a filled trade before it starts: its work moves back (and, edited, again). */
const UNDOABLE: ReadonlySet<TradeActionBody['action']> = new Set(['cancel', 'edit']);

/** A filled trade is cancelled or edited only before its first hours (the span's or the swap's) start. */
function assertNotStarted(trade: TradeRow, localNow: string) {
  const first = trade.swap_start && trade.swap_start < trade.start ? trade.swap_start : trade.start;
  if (first <= localNow)
    throw invalidParams(
      `Trade #${trade.id} started at ${first}: a filled trade can be cancelled or edited only before it starts.`,
    );
}

const ACTIONS: Record<
  TradeActionBody['action'],
  { apply: (ctx: ActionContext) => Promise<ActionOutcome>; verb: string }
> = {
  accept: { apply: accept, verb: 'accepted' },
  decline: { apply: decline, verb: 'declined' },
  approve: { apply: approve, verb: 'approved' },
  deny: { apply: deny, verb: 'denied' },
  cancel: { apply: cancel, verb: 'cancelled' },
  edit: { apply: edit, verb: 'edited' },
};

/** Applies one action of the status machine (see tradeStatus) as a transition of the trade's row. */
export async function actOnTrade(trx: Db, auth: AuthContext, id: number, body: TradeActionBody): Promise<TradeStatus> {
  const action = ACTIONS[body.action];
  let requester: UserRow | undefined;
  let outcome: ActionOutcome | undefined;
  const { before: trade } = await transition(
    trx,
    { table: 'trade', orgId: auth.orgId, id, model: 'Trade', softDeleted: true },
    async (trade) => {
      const localNow = nowLocal(auth.timezone);
      const status = tradeStatus(trade, localNow);
      if (status === 'filled' && UNDOABLE.has(body.action)) assertNotStarted(trade, localNow);
      else if (!OPEN.has(status as StoredTradeStatus)) throw invalidParams(`Trade #${id} is ${status}.`);
      requester = await findUserOrInvalid(trx, auth.orgId, trade.requesting_user_id, 'requesting user');
      const now = nowUtc();
      outcome = await action.apply({ trx, auth, trade, requester, body, now });
      return { ...outcome.changes, status: outcome.next, updated_at: now };
    },
  );
  const { actor, next, changes } = outcome!;
  await writeLog(trx, auth, {
    action: `trade.${body.action}`,
    description:
      `${action.verb} trade #${id} of ${fullName(requester!)} (${trade.start} to ` +
      `${trade.end})${next === 'filled' && trade.status !== 'filled' ? '; the trade is filled' : ''}` +
      `${trade.status === 'filled' ? '; its work moved back' : ''}` +
      `${trade.status === 'filled' && next === 'filled' ? ' and moved again' : ''}` +
      `${body.action === 'edit' ? `; now ${changes.start} to ${changes.end}` : ''}.`,
    actorUserId: actor.id,
    entityType: 'trade',
    entityId: id,
    before: trade,
    after: { ...changes, status: next },
  });
  if (trade.status === 'filled' || next === 'filled')
    await reconcileTradeBanks(trx, auth, `trade.${body.action}`, [trade, { ...trade, ...changes }]);
  return next;
}

/**
 * The bank follows the charge (docs/time-off.md): work a trade moved (filled, moved back, moved
 * again) charges both users' approved time off in its hours again, naming the action's log entry.
 * A trade moves work only before it starts, so no finalized day is reached (no assignment to flag).
 */
async function reconcileTradeBanks(trx: Db, auth: AuthContext, action: string, terms: TradeRow[]) {
  const userIds = terms.flatMap((t) => [t.requesting_user_id, ...(t.accepting_user_id ? [t.accepting_user_id] : [])]);
  const spans = terms.flatMap((t) => {
    const { span, swap } = spansOf(t);
    return swap ? [span, swap] : [span];
  });
  const distinct = [...new Map(spans.map((s) => [`${s.start}|${s.end}`, s])).values()];
  for (const span of distinct) await reconcileBank(trx, auth, { action, userIds, ...span, assignmentIds: [] });
}

export async function deleteTrade(trx: Db, auth: AuthContext, id: number, adminId: number | undefined): Promise<void> {
  const { before: trade } = await transition(
    trx,
    { table: 'trade', orgId: auth.orgId, id, model: 'Trade', softDeleted: true },
    async (trade) => {
      if (trade.status === 'filled')
        throw invalidParams(`Trade #${id} is filled: its work has moved and it cannot be deleted.`);
      if (adminId !== undefined) await findUserOrInvalid(trx, auth.orgId, adminId, 'admin id');
      return { deleted_at: nowUtc(), updated_at: nowUtc() };
    },
  );
  await logAction(trx, auth, 'trade.deleted', id, {
    description: `deleted trade #${id} (${trade.start} to ${trade.end}).`,
    actorUserId: adminId,
    before: trade,
  });
}
