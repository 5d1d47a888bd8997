import { createHash } from 'node:crypto';
import { writeLog } from '../../../core/audit.js';
import type { AuthContext } from '../../../core/auth/context.js';
import { type Db, withTransaction } from '../../../core/db/transaction.js';
import { fatigueSettingOf } from '../../../scheduling/index.js';
import { findListOrThrow } from '../../lists/repository.js';
import { findOrganization } from '../../organizations/repository.js';
import { listTimeOffTypes } from '../../time-off-types/repository.js';
import type { CandidateSelection } from '../ordering/candidates.js';
import { findPassDecision, insertContact, insertDecision, insertDecisionLines, SEAL_ACTION } from './repository.js';
import type { CallbackContactRow, CallbackDecisionLineRow, CallbackDecisionRow, DecisionVerdict } from './table.js';

/*
 * Decision records (docs/workflows.md, "Decision records"): written in the transaction of what they
 * record (a callback's start, a runner pass's step, an answer), never changed afterwards.
 */

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Rows written in one transaction, which one seal covers. */
export interface SealedRows {
  decision?: CallbackDecisionRow;
  lines: CallbackDecisionLineRow[];
  contacts: CallbackContactRow[];
}

const num = (value: number | string | null) => (value === null ? null : Number(value));

/**
 * The SHA-256 of the stored fields of decision rows (a record's head, its lines, contacts), in a fixed
 * order: what a seal carries and `checkSeals` (callback-decisions/seals.ts) computes again from the database.
 */
export function sealHash(rows: SealedRows): string {
  const d = rows.decision;
  return sha256(
    JSON.stringify([
      d ? [num(d.id), num(d.callback_id), d.kind, d.at, d.ordering, d.inputs, d.rules, d.rules_hash] : null,
      rows.lines.map((l) => [
        num(l.id),
        num(l.decision_id),
        num(l.callback_id),
        num(l.user_id),
        l.verdict,
        num(l.position),
        l.reason_code,
        l.reason,
      ]),
      rows.contacts.map((c) => [
        num(c.id),
        num(c.callback_id),
        num(c.user_id),
        c.purpose,
        c.channel,
        c.at,
        c.result,
        c.receipt,
        c.detail,
      ]),
    ]),
  );
}

/**
 * Seals rows just written: a system-log entry `callback.record_sealed` in their transaction, naming them and
 * carrying their `sealHash`; the log's hash chain (src/core/log-chain.ts) keeps the seal itself from being edited.
 */
async function seal(trx: Db, auth: AuthContext, callbackId: number, rows: SealedRows): Promise<void> {
  if (!rows.decision && rows.lines.length === 0 && rows.contacts.length === 0) return;
  const hash = sealHash(rows);
  const decisionId = rows.decision?.id ?? rows.lines[0]?.decision_id ?? null;
  await writeLog(trx, auth, {
    action: SEAL_ACTION,
    description:
      `sealed ${rows.lines.length} line(s) and ${rows.contacts.length} contact(s) of callback #${callbackId}'s ` +
      `decision record${decisionId === null ? '' : ` #${decisionId}`}: SHA-256 ${hash}.`,
    entityType: 'callback',
    entityId: callbackId,
    after: {
      decision_id: rows.decision?.id ?? null,
      line_ids: rows.lines.map((l) => l.id),
      contact_ids: rows.contacts.map((c) => c.id),
      sha256: hash,
    },
  });
}

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
  auth: AuthContext,
  callback: { id: number; list_id: number; ordering: string },
  selection: CandidateSelection,
  at: string,
): Promise<void> {
  const orgId = auth.orgId;
  const rules = await rulesInForce(trx, orgId, callback.list_id);
  const decision = await insertDecision(trx, {
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
  const lines = await insertDecisionLines(
    trx,
    selection.inputs.map((input) => ({
      organization_id: orgId,
      decision_id: decision.id,
      callback_id: callback.id,
      user_id: input.user_id,
      verdict: positions.has(input.user_id) ? ('candidate' as const) : ('skipped' as const),
      position: positions.get(input.user_id) ?? null,
      reason_code: selection.codes.get(input.user_id) ?? null,
      reason: reasons.get(input.user_id) ?? null,
    })),
  );
  await seal(trx, auth, callback.id, { decision, lines, contacts: [] });
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
  private readonly orgId: number;

  constructor(
    private readonly auth: AuthContext,
    private readonly callback: { id: number; list_id: number },
    private readonly at: string,
    /** the people contacted before this pass */
    private readonly offeredBefore: Array<{ user_id: number; position: number }>,
  ) {
    this.orgId = auth.orgId;
  }

  async add(trx: Db, lines: DecisionLine[]): Promise<void> {
    const found = await findPassDecision(trx, this.orgId, this.callback.id, this.at);
    let decision: CallbackDecisionRow | undefined;
    if (found === undefined) {
      const rules = await rulesInForce(trx, this.orgId, this.callback.list_id);
      decision = await insertDecision(trx, {
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
    const rows = await insertDecisionLines(trx, this.rows((found ?? decision)!.id, lines));
    await seal(trx, this.auth, this.callback.id, { decision, lines: rows, contacts: [] });
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
  auth: AuthContext,
  callbackId: number,
  at: string,
  line: DecisionLine,
): Promise<void> {
  const orgId = auth.orgId;
  const decision = await insertDecision(trx, {
    organization_id: orgId,
    callback_id: callbackId,
    kind: 'answer',
    at,
    ordering: null,
    inputs: null,
    rules: null,
    rules_hash: null,
  });
  const lines = await insertDecisionLines(trx, [
    {
      organization_id: orgId,
      decision_id: decision.id,
      callback_id: callbackId,
      ...line,
      reason_code: line.reason_code ?? null,
      reason: line.reason ?? null,
    },
  ]);
  await seal(trx, auth, callbackId, { decision, lines, contacts: [] });
}

/** One message sent (or not) for a callback, sealed in its transaction (the caller's, else its own). */
export function recordContact(
  db: Db,
  auth: AuthContext,
  contact: {
    callback_id: number;
    user_id: number;
    purpose: 'offer' | 'notice';
    channel: string;
    at: string;
    /** held: a channel holds the message back (SMS text pacing); a `sent` contact follows when it goes out */
    result: 'sent' | 'held' | 'failed' | 'unavailable';
    receipt?: string | null;
    detail?: string | null;
  },
): Promise<void> {
  if (!db.isTransaction) return withTransaction(db, (trx) => recordContact(trx, auth, contact));
  return insertContact(db, {
    organization_id: auth.orgId,
    ...contact,
    receipt: contact.receipt ?? null,
    detail: contact.detail ?? null,
  }).then((row) => seal(db, auth, contact.callback_id, { lines: [], contacts: [row] }));
}
