import { orgRows } from '../../core/db/org-rows.js';
import type { AuthContext } from '../../core/auth/context.js';
import { logAction } from '../../core/audit.js';
import { lockRowOrThrow } from '../../core/db/locks.js';
import type { Db } from '../../core/db/transaction.js';
import { checkAll, invalidParams, notFound } from '../../core/errors.js';
import { localToUtc, normalizeLocalDateTime, nowUtc, utcToLocal } from '../../core/time.js';
import { forcedOrder } from '../forced-hires/order.js';
import { assertGroupsExist, groupMemberIds } from '../groups/repository.js';
import { findTimeOffTypeOrInvalid } from '../time-off-types/repository.js';
import { leaveInput } from '../time-offs/dates.js';
import type { OffLimitNotice } from '../time-offs/limits.js';
import { createTimeOffWithNotices } from '../time-offs/rules.js';
import { APPROVED } from '../time-offs/table.js';
import { assertUsersExist, findUsersByIds } from '../users/repository.js';
import { fullName } from '../users/serialize.js';
import type { BidPickBody, BidRoundResponse, CreateBidRoundBody } from './schemas.js';
import type { BidRoundRow, BidRoundStatus, BidTurnRow } from './table.js';

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Where a round stands at `nowMs`, from its stored state alone (docs/contract-rules.md, "Vacation bidding"). */
export interface TurnState {
  /** the turn now (0-based), null: not open, not begun, or every turn taken */
  turn: number | null;
  /** when the current turn began and ends (epoch ms; until null while paused) */
  fromMs: number;
  untilMs: number | null;
  /** turns from the recorded one up to the current one whose window lapsed: passes not yet written */
  lapsed: number[];
}

export function turnState(round: BidRoundRow, nowMs: number): TurnState {
  const members = JSON.parse(round.member_ids) as number[];
  const total = members.length * round.turns_per_member;
  const none: TurnState = { turn: null, fromMs: 0, untilMs: null, lapsed: [] };
  if ((round.status !== 'open' && round.status !== 'paused') || round.turn_started_at === null) return none;
  const window = round.turn_minutes * MINUTE;
  const started = Date.parse(round.turn_started_at);
  // a paused round's clock stands still at the pause
  const at = round.status === 'paused' && round.paused_at ? Date.parse(round.paused_at) : nowMs;
  const elapsed = Math.max(0, Math.floor((at - started) / window));
  const lapsed: number[] = [];
  for (let t = round.turn_index; t < Math.min(round.turn_index + elapsed, total); t += 1) lapsed.push(t);
  const turn = round.turn_index + elapsed;
  if (turn >= total) return { ...none, lapsed };
  const fromMs = started + elapsed * window;
  return { turn, fromMs, untilMs: round.status === 'paused' ? null : fromMs + window, lapsed };
}

export const memberOf = (round: BidRoundRow, turn: number) => {
  const members = JSON.parse(round.member_ids) as number[];
  return members[turn % members.length]!;
};

export async function createBidRound(trx: Db, auth: AuthContext, body: CreateBidRoundBody): Promise<number> {
  const [, , , opensAt] = await checkAll([
    () => Promise.all(body.time_off_type_ids.map((id) => findTimeOffTypeOrInvalid(trx, auth.orgId, id))),
    () => {
      if ((body.group_id === undefined) === (body.user_ids === undefined))
        throw invalidParams('Give either a group id or user ids for the members of the round, not both.');
    },
    () =>
      body.group_id !== undefined
        ? assertGroupsExist(trx, auth.orgId, [body.group_id])
        : body.user_ids !== undefined
          ? assertUsersExist(trx, auth.orgId, body.user_ids, 'user id')
          : undefined,
    () => normalizeLocalDateTime(body.opens_at),
  ] as const);
  const ids = body.group_id !== undefined ? await groupMemberIds(trx, auth.orgId, body.group_id) : body.user_ids!;
  if (ids.length === 0) throw invalidParams('The group id names a group without members.');
  // seniority: earliest date of hire first (none last), then last name, first name and id
  const members = forcedOrder([...(await findUsersByIds(trx, auth.orgId, ids)).values()], new Map());
  const { id } = await trx
    .insertInto('bid_round')
    .values({
      organization_id: auth.orgId,
      name: body.name,
      year: body.year,
      time_off_type_ids: JSON.stringify([...new Set(body.time_off_type_ids)]),
      group_id: body.group_id ?? null,
      member_ids: JSON.stringify(members.map((m) => m.id)),
      turn_minutes: body.turn_minutes,
      turns_per_member: body.turns_per_member ?? 1,
      opens_at: opensAt,
      status: 'draft',
      turn_index: 0,
      turn_started_at: null,
      paused_at: null,
      created_at: nowUtc(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await logAction(trx, auth, 'bid_round.created', id, { description: `created the bid round ${body.name}.` });
  return id;
}

const lockRound = (trx: Db, auth: AuthContext, id: number) =>
  lockRowOrThrow(trx, { table: 'bid_round', orgId: auth.orgId, id, model: 'BidRound' });

/** Writes the passes of lapsed turns and moves the recorded turn to the current one (under the round's lock). */
async function recordLapsed(trx: Db, auth: AuthContext, round: BidRoundRow, nowMs: number): Promise<BidRoundRow> {
  const state = turnState(round, nowMs);
  if (state.lapsed.length === 0) return round;
  const now = nowUtc();
  for (const turn of state.lapsed) {
    await trx
      .insertInto('bid_turn')
      .values({
        organization_id: auth.orgId,
        round_id: round.id,
        turn,
        user_id: memberOf(round, turn),
        kind: 'pass',
        time_off_id: null,
        start_date: null,
        end_date: null,
        time_off_type_id: null,
        created_at: now,
      })
      .execute();
  }
  const window = round.turn_minutes * MINUTE;
  const turnIndex = round.turn_index + state.lapsed.length;
  const turnStartedAt = iso(Date.parse(round.turn_started_at!) + state.lapsed.length * window);
  await trx
    .updateTable('bid_round')
    .set({ turn_index: turnIndex, turn_started_at: turnStartedAt })
    .where('organization_id', '=', auth.orgId)
    .where('id', '=', round.id)
    .execute();
  return { ...round, turn_index: turnIndex, turn_started_at: turnStartedAt };
}

const STATUS_MOVES: Record<'open' | 'pause' | 'close', BidRoundStatus[]> = {
  open: ['draft', 'paused'],
  pause: ['open'],
  close: ['draft', 'open', 'paused'],
};

/** An admin opens (or resumes), pauses or closes a round; 422 from a state the move does not leave. */
export async function moveBidRound(trx: Db, auth: AuthContext, id: number, move: 'open' | 'pause' | 'close') {
  const nowMs = Date.now();
  let round = await lockRound(trx, auth, id);
  if (!STATUS_MOVES[move].includes(round.status))
    throw invalidParams(`A bid round that is ${round.status} cannot be ${move === 'open' ? 'opened' : `${move}d`}.`);
  round = await recordLapsed(trx, auth, round, nowMs);
  const changes =
    move === 'open' && round.status === 'draft'
      ? // the first turn begins at opens_at (in the past: its window may have lapsed already)
        { status: 'open' as const, turn_started_at: localToUtc(round.opens_at, auth.timezone) }
      : move === 'open'
        ? // resumed: the current turn keeps what was left of its window
          {
            status: 'open' as const,
            paused_at: null,
            turn_started_at: iso(Date.parse(round.turn_started_at!) + nowMs - Date.parse(round.paused_at!)),
          }
        : move === 'pause'
          ? { status: 'paused' as const, paused_at: iso(nowMs) }
          : { status: 'closed' as const, paused_at: null };
  await trx
    .updateTable('bid_round')
    .set(changes)
    .where('organization_id', '=', auth.orgId)
    .where('id', '=', id)
    .execute();
  await logAction(trx, auth, `bid_round.${move}`, id, { description: `${move}: the bid round ${round.name}.` });
}

const localOf = (ms: number, timezone: string) => utcToLocal(iso(ms), timezone);

/** An admin's session or the API credential: their pick is an admin's approval. */
const pickedByAdmin = (auth: AuthContext) => !auth.sessionUser || auth.sessionUser.isAdmin;

/**
 * A member's own pick is approved time off no admin approved: past an off limit that requires an
 * admin's approval it is refused like a full slot (422 naming the limit; the write rolls back), and
 * the turn stays. An admin may pick it for them.
 */
function assertNoApprovalNeeded(notices: OffLimitNotice[]) {
  const needing = notices.filter((n) => n.off_limit.action === 'require_approval');
  if (needing.length === 0) return;
  const messages = needing.map(
    (n) =>
      `The off limit ${n.off_limit.name} allows at most ${n.off_limit.max_off} off on ${n.date}; already off: ` +
      `${n.others_off.map((o) => o.name).join(', ') || 'nobody'}; a pick past it needs an admin's approval: ` +
      'an admin may pick it for you.',
  );
  throw invalidParams(messages, { off_limits: needing });
}

/**
 * The member whose turn it is picks a date range (an admin may pick for them): the pick becomes
 * approved time off through createTimeOff (bank charged, off limits enforced), and the next turn
 * begins now. Under the round's lock: one pick per turn however many race.
 */
export async function pickInRound(trx: Db, auth: AuthContext, id: number, body: BidPickBody): Promise<number> {
  const nowMs = Date.now();
  let round = await lockRound(trx, auth, id);
  if (round.status !== 'open') throw invalidParams(`The bid round is ${round.status}: no picks are taken.`);
  round = await recordLapsed(trx, auth, round, nowMs);
  const state = turnState(round, nowMs);
  if (state.turn === null) throw invalidParams('Every turn of the bid round is taken.');
  const users = await findUsersByIds(trx, auth.orgId, [memberOf(round, state.turn), body.user_id]);
  const member = users.get(memberOf(round, state.turn));
  if (!member) throw invalidParams(`The member of turn ${state.turn + 1} is no longer a user; close the round.`);
  if (nowMs < state.fromMs)
    throw invalidParams(`The bid round's first turn begins at ${localOf(state.fromMs, auth.timezone)}.`);
  const self = auth.sessionUser && !auth.sessionUser.isAdmin ? auth.sessionUser.userId : body.user_id;
  if (member.id !== body.user_id || member.id !== self) {
    throw invalidParams(
      `It is ${fullName(member)}'s turn (turn ${state.turn + 1}) until ${localOf(state.untilMs!, auth.timezone)}.`,
    );
  }
  const types = JSON.parse(round.time_off_type_ids) as number[];
  const year = String(round.year);
  await checkAll([
    () => {
      if (!types.includes(body.time_off_type_id))
        throw invalidParams('The selected time off type id is not one of the bid round.');
    },
    () => {
      if (!body.start_date.startsWith(year) || !body.end_date.startsWith(year))
        throw invalidParams(`The start date and end date must fall in ${year}, the bid round's year.`);
    },
  ]);
  const { id: timeOffId, warnings } = await createTimeOffWithNotices(trx, auth, {
    userId: member.id,
    adminIds: auth.sessionUser?.isAdmin ? [auth.sessionUser.userId] : [],
    ...leaveInput(body.start_date, body.end_date),
    typeId: body.time_off_type_id,
    status: APPROVED,
    userNote: `Bid round ${round.name}, turn ${state.turn + 1}`,
    rrule: null,
    requestedByUser: false,
  });
  if (!pickedByAdmin(auth)) assertNoApprovalNeeded(warnings);
  const now = nowUtc();
  await trx
    .insertInto('bid_turn')
    .values({
      organization_id: auth.orgId,
      round_id: id,
      turn: state.turn,
      user_id: member.id,
      kind: 'pick',
      time_off_id: timeOffId,
      start_date: body.start_date,
      end_date: body.end_date,
      time_off_type_id: body.time_off_type_id,
      created_at: now,
    })
    .execute();
  await trx
    .updateTable('bid_round')
    .set({ turn_index: state.turn + 1, turn_started_at: iso(nowMs) })
    .where('organization_id', '=', auth.orgId)
    .where('id', '=', id)
    .execute();
  return timeOffId;
}

export async function listBidRoundRows(db: Db, orgId: number): Promise<BidRoundRow[]> {
  return db.selectFrom('bid_round').selectAll().where('organization_id', '=', orgId).orderBy('id').execute();
}

/** A round as its members see it: seniority order, each one's turns, whose turn it is and until when. */
export async function readBidRound(db: Db, auth: AuthContext, id: number): Promise<BidRoundResponse> {
  const round = await orgRows(db, 'bid_round', auth.orgId).where('id', '=', id).executeTakeFirst();
  if (!round) throw notFound('BidRound');
  const turns: Array<Pick<BidTurnRow, 'turn' | 'user_id' | 'kind'> & Partial<BidTurnRow>> = await orgRows(
    db,
    'bid_turn',
    auth.orgId,
  )
    .where('round_id', '=', id)
    .orderBy('turn')
    .execute();
  const state = turnState(round, Date.now());
  // lapsed windows not yet written are passes all the same
  for (const turn of state.lapsed) turns.push({ turn, user_id: memberOf(round, turn), kind: 'pass' });
  const memberIds = JSON.parse(round.member_ids) as number[];
  const users = await findUsersByIds(db, auth.orgId, memberIds);
  const name = (userId: number) => {
    const user = users.get(userId);
    return user ? fullName(user) : `user #${userId}`;
  };
  const current = state.turn === null ? null : memberOf(round, state.turn);
  return {
    id: round.id,
    name: round.name,
    year: round.year,
    time_off_type_ids: JSON.parse(round.time_off_type_ids),
    group_id: round.group_id,
    turn_minutes: round.turn_minutes,
    turns_per_member: round.turns_per_member,
    opens_at: round.opens_at,
    status: round.status,
    current_turn:
      current === null
        ? null
        : {
            turn: state.turn! + 1,
            user_id: current,
            name: name(current),
            from: localOf(state.fromMs, auth.timezone),
            until: state.untilMs === null ? null : localOf(state.untilMs, auth.timezone),
          },
    members: memberIds.map((userId, index) => ({
      position: index + 1,
      user_id: userId,
      name: name(userId),
      date_of_hire: users.get(userId)?.date_of_hire ?? null,
      turns: turns
        .filter((t) => t.user_id === userId)
        .map((t) => ({
          turn: t.turn + 1,
          kind: t.kind,
          time_off_id: t.time_off_id ?? null,
          start_date: t.start_date ?? null,
          end_date: t.end_date ?? null,
          time_off_type_id: t.time_off_type_id ?? null,
        })),
    })),
  };
}
