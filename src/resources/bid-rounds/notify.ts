import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../core/db/transaction.js';
import { utcToLocal } from '../../core/time.js';
import type { Channel, Message } from '../callbacks/channels/channel.js';
import type { UserRow } from '../users/table.js';
import { memberOf, turnState } from './rules.js';
import type { BidRoundRow } from './table.js';

/** The words telling a member their bidding turn began. */
export function turnMessage(round: BidRoundRow, until: string | null): Message {
  const window = until ? `, until ${until.slice(0, 16)}` : '';
  return {
    subject: `Your turn to bid: ${round.name}`,
    text:
      `It is your turn to pick your days off in ${round.name} (${round.year})${window}. ` +
      'A turn whose window passes goes to the next member.\n',
    short: `Your turn to bid in ${round.name}${window}`,
  };
}

/**
 * One pass of the bid turn notices (docs/contract-rules.md, "Vacation bidding"): in each open round
 * the member whose turn it is now is told once, on each channel that reaches them (e-mail, push).
 * The round's `notified_turn` is raised before the notice goes out: one process tells each turn.
 * Answers how many members were told.
 */
export async function sendTurnNotices(
  db: Db,
  channels: Channel[],
  log: FastifyBaseLogger,
  nowMs: number = Date.now(),
): Promise<number> {
  const rounds = await db
    .selectFrom('bid_round')
    .innerJoin('organization', 'organization.id', 'bid_round.organization_id')
    .selectAll('bid_round')
    .select('organization.timezone')
    .where('bid_round.status', '=', 'open')
    .execute();
  let sent = 0;
  for (const { timezone, ...round } of rounds) {
    const { turn, untilMs } = turnState(round, nowMs);
    if (turn === null || (round.notified_turn ?? -1) >= turn) continue;
    const claimed = await db
      .updateTable('bid_round')
      .set({ notified_turn: turn })
      .where('id', '=', round.id)
      .where((eb) => eb.or([eb('notified_turn', 'is', null), eb('notified_turn', '<', turn)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue;
    const member = (await db
      .selectFrom('user_account')
      .selectAll()
      .where('organization_id', '=', round.organization_id)
      .where('id', '=', memberOf(round, turn))
      .where('deleted_at', 'is', null)
      .executeTakeFirst()) as UserRow | undefined;
    if (!member) continue;
    sent += 1;
    const until = untilMs === null ? null : utcToLocal(new Date(untilMs).toISOString(), timezone);
    const message = turnMessage(round, until);
    for (const channel of channels) {
      if (await channel.unavailable(db, round.organization_id, member)) continue;
      await channel.send(member, message).catch((error: unknown) => {
        log.warn({ err: error, userId: member.id, roundId: round.id }, 'bid turn notice not delivered');
      });
    }
  }
  return sent;
}
