import type { Generated, Selectable } from 'kysely';

/** A decision record: when a callback starts, a runner pass that acted, an answer (append-only). */
export type DecisionKind = 'start' | 'pass' | 'answer';

export interface CallbackDecisionTable {
  id: Generated<number>;
  organization_id: number;
  callback_id: number;
  kind: DecisionKind;
  /** UTC instant */
  at: string;
  /** the ordering method (start) */
  ordering: string | null;
  /** JSON: the ordering inputs of every list member (OrderingInput[]), start only */
  inputs: string | null;
  /** JSON: the rules in force (the list's settings and the organization's rules); null on answers */
  rules: string | null;
  /** SHA-256 (hex) of `rules` */
  rules_hash: string | null;
}

/**
 * candidate (at `position`), skipped, offered, already_offered, do_not_disturb, no_answer,
 * accepted, denied
 */
export type DecisionVerdict =
  | 'candidate'
  | 'skipped'
  | 'offered'
  | 'already_offered'
  | 'do_not_disturb'
  | 'no_answer'
  | 'accepted'
  | 'denied';

export interface CallbackDecisionLineTable {
  id: Generated<number>;
  organization_id: number;
  decision_id: number;
  callback_id: number;
  user_id: number;
  verdict: DecisionVerdict;
  position: number | null;
  /** the availability reason's kind (working, time_off, lacks, limit …) or the runner's (do_not_disturb …) */
  reason_code: string | null;
  /** the words people see */
  reason: string | null;
}

export interface CallbackContactTable {
  id: Generated<number>;
  organization_id: number;
  callback_id: number;
  user_id: number;
  /** offer or notice */
  purpose: string;
  /** the channel's method (`Email`, `Text (SMS)` …) */
  channel: string;
  /** UTC instant */
  at: string;
  /** sent, held (SMS text pacing: `sent` follows when it goes out), failed, unavailable */
  result: string;
  /** the provider's message id when it gives one */
  receipt: string | null;
  detail: string | null;
}

export type CallbackDecisionRow = Selectable<CallbackDecisionTable>;
export type CallbackDecisionLineRow = Selectable<CallbackDecisionLineTable>;
export type CallbackContactRow = Selectable<CallbackContactTable>;

declare module '../../../core/db/types.js' {
  interface Database {
    callback_decision: CallbackDecisionTable;
    callback_decision_line: CallbackDecisionLineTable;
    callback_contact: CallbackContactTable;
  }
}
