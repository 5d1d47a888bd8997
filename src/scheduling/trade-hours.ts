import type { WorkedPiece } from './worked.js';

/**
 * Whose hours of work a trade's hours are (docs/workflows.md, "Trade hours and FLSA §7(p)(3)"):
 * with `scheduled` (the default, 29 CFR 553.31) the hours a substitute works on a voluntary trade
 * (a shift whose `traded_with` names the person it was taken from) are excluded from the
 * substitute's hours of work and counted, and paid, for the scheduled person; with `worker` they
 * are the substitute's. Overtime and payroll read paid work through this one rule (paidFacts).
 */
export type TradeHoursCountFor = 'scheduled' | 'worker';
export const TRADE_HOURS_COUNT_FOR: readonly TradeHoursCountFor[] = ['scheduled', 'worker'];

/** A worked piece as paid: `user_id` is whose hours they are, `worked_by` who worked them. */
export type PaidPiece = WorkedPiece & { worked_by: number };

/** Each piece credited per the setting. Pure. */
export function creditTradeHours(pieces: WorkedPiece[], countFor: string): PaidPiece[] {
  return pieces.map((piece) =>
    countFor === 'scheduled' && piece.traded_with !== null && piece.traded_with !== piece.user_id
      ? { ...piece, user_id: piece.traded_with, worked_by: piece.user_id }
      : { ...piece, worked_by: piece.user_id },
  );
}
