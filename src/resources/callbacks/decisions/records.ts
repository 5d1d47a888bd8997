import { createHash } from 'node:crypto';
import type { Db } from '../../../core/db/transaction.js';
import { fatigueSettingOf } from '../../../scheduling/index.js';
import { findListOrThrow } from '../../lists/repository.js';
import { findOrganization } from '../../organizations/repository.js';
import { listTimeOffTypes } from '../../time-off-types/repository.js';
import type { CandidateSelection } from '../ordering/candidates.js';
import { findPassDecision, insertContact, insertDecision, insertDecisionLines } from './repository.js';
import type { DecisionVerdict } from './table.js';

/*
 * Decision records (docs/workflows.md, "Decision records"): written in the transaction of what they
 * record (a callback's start, a runner pass's step, an answer), never changed afterwards.
 */

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The rules in force for a callback on the list, as JSON with its SHA-256. */
export interface RulesSnapshot {
  json: string;
  hash: string;
}

/**
 * The list's settings (limits, ordering, contact window, people at once) and the organization's
 * rules the offer depends on (time zone, work period, time off types' callability and callback
 * exclusion windows, fatigue rules), in a fixed key order so that the same rules give the same hash.
 */
export async function rulesInForce(db: Db, orgId: number, listId: number): Promise<RulesSnapshot> {
  const [list, org, types, fatigue] = await Promise.all([
    findListOrThrow(db, orgId, listId),
    findOrganization(db, orgId),
    listTimeOffTypes(db, orgId),
    fatigueSettingOf(db, orgId),
  ]);
  const rules = {
    list: {
      id: list.id,
      name: list.name,
      ordering: list.ordering,
      max_consecutive_hours: Number(list.max_consecutive_hours),
      weekly_limit: Number(list.weekly_limit),
      monthly_limit: Number(list.monthly_limit),
      yearly_limit: Number(list.yearly_limit),
      contact_window_minutes: list.contact_window_minutes === null ? null : Number(list.contact_window_minutes),
      contact_at_once: Number(list.contact_at_once),
      deleted: list.deleted_at !== null,
    },
    organization: {
      timezone: org?.timezone ?? null,
      work_period_days: org ? Number(org.work_period_days) : null,
      work_period_hours: org ? Number(org.work_period_hours) : null,
      work_period_start: org?.work_period_start ?? null,
      time_off_types: [...types]
        .sort((a, b) => a.id - b.id)
        .map((t) => ({
          id: t.id,
          label: t.label,
          callable: t.force_include === 1,
          callback_exclusion_hours: Number(t.callback_exclusion_hours),
        })),
      fatigue_rules: fatigue.rules,
    },
  };
  const json = JSON.stringify(rules);
  return { json, hash: sha256(json) };
}

/** The start record: every member's verdict (candidate at position N, or skipped) and what ordered them. */
export async function recordStart(
  trx: Db,
  orgId: number,
  callback: { id: number; list_id: number; ordering: string },
  selection: CandidateSelection,
  at: string,
): Promise<void> {
  const rules = await rulesInForce(trx, orgId, callback.list_id);
  const decisionId = await insertDecision(trx, {
    organization_id: orgId,
    callback_id: callback.id,
    kind: 'start',
    at,
    ordering: callback.ordering,
    inputs: JSON.stringify(selection.inputs),
    rules: rules.json,
    rules_hash: rules.hash,
  });
  const reasons = new Map(selection.skipped.map((s) => [s.user_id, s.reason]));
  const positions = new Map(selection.userIds.map((id, index) => [id, index + 1]));
  await insertDecisionLines(
    trx,
    selection.inputs.map((input) => ({
      organization_id: orgId,
      decision_id: decisionId,
      callback_id: callback.id,
      user_id: input.user_id,
      verdict: positions.has(input.user_id) ? ('candidate' as const) : ('skipped' as const),
      position: positions.get(input.user_id) ?? null,
      reason_code: selection.codes.get(input.user_id) ?? null,
      reason: reasons.get(input.user_id) ?? null,
    })),
  );
}

export interface DecisionLine {
  user_id: number;
  verdict: DecisionVerdict;
  position: number | null;
  reason_code?: string | null;
  reason?: string | null;
}

/**
 * One runner pass's record: created with the pass's first step (its rules, and the people offered
 * on earlier passes as `already_offered`), each step adding its lines in its own transaction.
 */
export class PassRecord {
  constructor(
    private readonly orgId: number,
    private readonly callback: { id: number; list_id: number },
    private readonly at: string,
    /** the people contacted before this pass */
    private readonly offeredBefore: Array<{ user_id: number; position: number }>,
  ) {}

  async add(trx: Db, lines: DecisionLine[]): Promise<void> {
    const found = await findPassDecision(trx, this.orgId, this.callback.id, this.at);
    let decisionId = found?.id;
    if (decisionId === undefined) {
      const rules = await rulesInForce(trx, this.orgId, this.callback.list_id);
      decisionId = await insertDecision(trx, {
        organization_id: this.orgId,
        callback_id: this.callback.id,
        kind: 'pass',
        at: this.at,
        ordering: null,
        inputs: null,
        rules: rules.json,
        rules_hash: rules.hash,
      });
      lines = [
        ...this.offeredBefore.map((u) => ({
          user_id: u.user_id,
          verdict: 'already_offered' as const,
          position: u.position,
          reason_code: 'already_offered',
          reason: 'already offered this callback',
        })),
        ...lines,
      ];
    }
    await insertDecisionLines(trx, this.rows(decisionId, lines));
  }

  private rows(decisionId: number, lines: DecisionLine[]) {
    return lines.map((line) => ({
      organization_id: this.orgId,
      decision_id: decisionId,
      callback_id: this.callback.id,
      user_id: line.user_id,
      verdict: line.verdict,
      position: line.position,
      reason_code: line.reason_code ?? null,
      reason: line.reason ?? null,
    }));
  }
}

/** An answer (accepted, denied, no answer) as its own record, in the answer's transaction. */
export async function recordAnswer(
  trx: Db,
  orgId: number,
  callbackId: number,
  at: string,
  line: DecisionLine,
): Promise<void> {
  const decisionId = await insertDecision(trx, {
    organization_id: orgId,
    callback_id: callbackId,
    kind: 'answer',
    at,
    ordering: null,
    inputs: null,
    rules: null,
    rules_hash: null,
  });
  await insertDecisionLines(trx, [
    {
      organization_id: orgId,
      decision_id: decisionId,
      callback_id: callbackId,
      ...line,
      reason_code: line.reason_code ?? null,
      reason: line.reason ?? null,
    },
  ]);
}

/** One message sent (or not) for a callback. */
export function recordContact(
  db: Db,
  orgId: number,
  contact: {
    callback_id: number;
    user_id: number;
    purpose: 'offer' | 'notice';
    channel: string;
    at: string;
    result: 'sent' | 'failed' | 'unavailable';
    receipt?: string | null;
    detail?: string | null;
  },
): Promise<void> {
  return insertContact(db, {
    organization_id: orgId,
    ...contact,
    receipt: contact.receipt ?? null,
    detail: contact.detail ?? null,
  });
}
