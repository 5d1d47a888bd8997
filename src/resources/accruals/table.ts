import type { Generated, Selectable } from 'kysely';

/** How a rule accrues: per calendar period, per hours worked, or not automatically. */
export const ACCRUAL_METHODS = ['none', 'pay_period', 'days', 'week', 'month', 'year', 'hours_worked'] as const;
export type AccrualMethod = (typeof ACCRUAL_METHODS)[number];

/** One rule of an accrual profile: for one time off type. */
export interface AccrualRuleTable {
  id: Generated<number>;
  organization_id: number;
  profile_id: number;
  time_off_type_id: number;
  method: AccrualMethod;
  /** hours credited per period (or per `interval` hours worked) */
  hours: number;
  /** days per period for `days`; hours worked per credit for `hours_worked`; 1 otherwise */
  interval: number;
  /** balance cap; null = no cap */
  max_hours: number | null;
}

/** A track chains profiles by years of service: from `from_years` on, `profile_id` applies. */
export interface AccrualTrackStepTable {
  id: Generated<number>;
  organization_id: number;
  track_id: number;
  profile_id: number;
  from_years: number;
}

export type TransactionKind = 'manual' | 'accrual' | 'time_off' | 'time_off_restored' | 'time_off_adjustment';

/** The bank is this ledger: a balance is the sum of a user's rows for a type. */
export interface AccrualTransactionTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  time_off_type_id: number;
  hours: number;
  kind: TransactionKind;
  admin_id: number | null;
  notes: string | null;
  time_off_id: number | null;
  /** `${ruleId}:${periodEndDate}` for automatic accruals (unique per user and type) */
  period_key: string | null;
  created_at: string;
  /** a time_off_adjustment: the action and system-log entry of the change that moved the charge */
  cause_action: Generated<string | null>;
  cause_log_id: Generated<number | null>;
  /** a time_off_adjustment reaching into a finalized day: the first such date (payroll flags it) */
  flagged_date: Generated<string | null>;
}

export type AccrualRuleRow = Selectable<AccrualRuleTable>;
export type AccrualTrackStepRow = Selectable<AccrualTrackStepTable>;
export type AccrualTransactionRow = Selectable<AccrualTransactionTable>;

declare module '../../core/db/types.js' {
  interface Database {
    accrual_rule: AccrualRuleTable;
    accrual_track_step: AccrualTrackStepTable;
    accrual_transaction: AccrualTransactionTable;
  }
}
