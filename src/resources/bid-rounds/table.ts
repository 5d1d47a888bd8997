import type { Generated, Selectable } from 'kysely';

export type BidRoundStatus = 'draft' | 'open' | 'paused' | 'closed';

/** A vacation bid round (docs/contract-rules.md, "Vacation bidding"). */
export interface BidRoundTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  year: number;
  /** JSON array of the time off type ids a pick may take */
  time_off_type_ids: string;
  /** the group whose members bid (null: the user ids given) */
  group_id: number | null;
  /** JSON array of user ids in seniority order, fixed when the round is made */
  member_ids: string;
  turn_minutes: number;
  turns_per_member: number;
  /** local datetime the first turn begins */
  opens_at: string;
  status: BidRoundStatus;
  /** the turn recorded last (0-based; member_ids[turn % members]) … */
  turn_index: number;
  /** … and when it began (UTC instant; null until opened) */
  turn_started_at: string | null;
  /** UTC instant of the pause (status paused) */
  paused_at: string | null;
  /** the last turn whose member was told it began (migration 1791; null: none yet) */
  notified_turn: number | null;
  created_at: string;
}

export type BidTurnKind = 'pick' | 'pass';

/** One turn taken: a pick (its approved time off) or a pass (the window lapsed). */
export interface BidTurnTable {
  id: Generated<number>;
  organization_id: number;
  round_id: number;
  turn: number;
  user_id: number;
  kind: BidTurnKind;
  time_off_id: number | null;
  start_date: string | null;
  end_date: string | null;
  time_off_type_id: number | null;
  created_at: string;
}

export type BidRoundRow = Selectable<BidRoundTable>;
export type BidTurnRow = Selectable<BidTurnTable>;

declare module '../../core/db/types.js' {
  interface Database {
    bid_round: BidRoundTable;
    bid_turn: BidTurnTable;
  }
}
