import type { Generated, Selectable } from 'kysely';

/** Stored status; `expired` is derived on read for open trades whose start has passed (rules.ts). */
export type StoredTradeStatus = 'pending' | 'accepted' | 'approved' | 'filled' | 'cancelled' | 'denied';
export type TradeUserStatus = 'offered' | 'accepted' | 'declined';

export interface TradeTable {
  id: Generated<number>;
  organization_id: number;
  requesting_user_id: number;
  /** set by the first acceptance */
  accepting_user_id: number | null;
  /** the admin asked to approve */
  approving_user_id: number;
  /** the admin who approved (or denied) */
  approved_by: number | null;
  /** local datetimes: the requester's hours, and the accepting user's hours given back in a swap */
  start: string;
  end: string;
  swap_start: string | null;
  swap_end: string | null;
  status: StoredTradeStatus;
  /** instants (UTC ISO) */
  request_date: string;
  accepted_at: string | null;
  approved_at: string | null;
  filled_at: string | null;
  notes: string | null;
  deleted_at: string | null;
  updated_at: string;
}

export interface TradeUserTable {
  id: Generated<number>;
  organization_id: number;
  trade_id: number;
  user_id: number;
  status: TradeUserStatus;
  offered_at: string;
  responded_at: string | null;
}

/**
 * What a filled trade changed on the schedule, one row per change (migration 1620), so that
 * cancelling or editing the trade before it starts undoes exactly those changes, newest first:
 * - `inserted`: a one-off shift the trade made (the substitute's, or the rest of a part-traded tour): deleted;
 * - `reassigned`: a one-off shift handed over: handed back (`before`: its user and traded_with);
 * - `changed`: a one-off shift cut to the hours not traded: given its hours back (`before`);
 * - `removed`: a rotation occurrence taken off: the date's earlier exception, if any, is restored.
 */
export interface TradePlacementTable {
  id: Generated<number>;
  organization_id: number;
  trade_id: number;
  kind: 'inserted' | 'reassigned' | 'changed' | 'removed';
  shift_id: number | null;
  recurring_shift_id: number | null;
  date: string | null;
  /** JSON of what the row was before (null: nothing, e.g. no exception on that date) */
  before: string | null;
  created_at: string;
}

export type TradeRow = Selectable<TradeTable>;
export type TradeUserRow = Selectable<TradeUserTable>;

declare module '../../core/db/types.js' {
  interface Database {
    trade: TradeTable;
    trade_user: TradeUserTable;
    trade_placement: TradePlacementTable;
  }
}
