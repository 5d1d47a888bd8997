import type { Db } from '../../core/db/transaction.js';
import { utcToLocal } from '../../core/time.js';
import { listMembers } from '../lists/repository.js';
import { findCallbackOrThrow, listCallbackUsers } from '../callbacks/repository.js';
import { rulesInForce, sha256 } from '../callbacks/decisions/records.js';
import { listDecisionLines, listDecisions } from '../callbacks/decisions/repository.js';
import { orderCandidates, orderingInputs, type OrderingInput } from '../callbacks/ordering/candidates.js';
import type { CallbackOrdering } from '../callbacks/table.js';
import { checkSeals } from './seals.js';

/** An input that ordered a member when the callback started, and what the database says now. */
export interface InputChange {
  user_id: number;
  field: string;
  stored: unknown;
  current: unknown;
}

export interface Replay {
  callback_id: number;
  ordering: string | null;
  /** false for callbacks started before decision records were kept: nothing to replay */
  recorded: boolean;
  /**
   * true when the stored order, its replay and the order from today's inputs agree and nothing was edited
   * (the record's rows match their seals, seals.ts)
   */
  identical: boolean;
  /** user ids in the order stored at the start (the candidates) */
  stored_order: number[];
  /** the order computed again from the stored inputs and rules */
  replayed_order: number[];
  /** the order computed from the inputs as the database holds them now */
  current_order: number[];
  input_changes: InputChange[];
  /** every difference found, in words */
  differences: string[];
  /** changes that are not differences of the order (the list's settings since) */
  notes: string[];
}

/** The inputs each method orders by (names, the last ties, aside): compared one by one. */
const COMPARED: Record<CallbackOrdering, ReadonlyArray<keyof OrderingInput>> = {
  rotating: ['last_offered', 'list_position'],
  hours: ['hours_charged', 'date_of_hire'],
  seniority: ['date_of_hire'],
};

const sameList = (a: number[], b: number[]) => a.length === b.length && a.every((id, i) => id === b[i]);
const listText = (ids: number[]) => (ids.length ? ids.map((id) => `#${id}`).join(', ') : 'nobody');

/**
 * Replays one callback's start (docs/workflows.md, "Replay"): orders its list again from the stored
 * inputs with the same pure function the start used, checks the rules snapshot against its hash and
 * the callback's users against the record, then gathers the inputs again from the database as it is
 * now (contacts on other callbacks up to the start) and says what changed.
 */
export async function replayCallback(db: Db, orgId: number, timeZone: string, callbackId: number): Promise<Replay> {
  const callback = await findCallbackOrThrow(db, orgId, callbackId);
  const decisions = await listDecisions(db, orgId, callbackId);
  const start = decisions.find((d) => d.kind === 'start');
  const result: Replay = {
    callback_id: callbackId,
    ordering: start?.ordering ?? callback.ordering,
    recorded: start !== undefined,
    identical: true,
    stored_order: [],
    replayed_order: [],
    current_order: [],
    input_changes: [],
    differences: [],
    notes: [],
  };
  if (!start) {
    result.notes.push('no decision record: the callback started before decision records were kept');
    return result;
  }
  const ordering = (start.ordering ?? callback.ordering) as CallbackOrdering;
  const inputs = JSON.parse(start.inputs ?? '[]') as OrderingInput[];
  const lines = (await listDecisionLines(db, orgId, callbackId)).filter((l) => l.decision_id === start.id);
  const candidates = lines.filter((l) => l.verdict === 'candidate').sort((a, b) => a.position! - b.position!);
  result.stored_order = candidates.map((l) => l.user_id);
  const isCandidate = new Set(result.stored_order);
  result.replayed_order = orderCandidates(ordering, inputs)
    .map((i) => i.user_id)
    .filter((id) => isCandidate.has(id));
  if (start.rules === null || sha256(start.rules) !== start.rules_hash)
    result.differences.push('the rules snapshot does not match its SHA-256: it was edited after the start');
  if (!sameList(result.stored_order, result.replayed_order))
    result.differences.push(
      `the stored inputs order ${listText(result.replayed_order)}, ` +
        `the record says ${listText(result.stored_order)}`,
    );
  const rulesNow = await rulesInForce(db, orgId, callback.list_id);
  if (rulesNow.hash !== start.rules_hash)
    result.notes.push(`the rules in force changed since the start: SHA-256 ${rulesNow.hash} now`);
  const users = await listCallbackUsers(db, orgId, callbackId);
  const positioned = users.map((u) => u.user_id);
  if (!sameList(positioned, result.stored_order))
    result.differences.push(
      `the callback's users are in the order ${listText(positioned)}, ` +
        `the record says ${listText(result.stored_order)}`,
    );

  // the inputs as the database holds them now, as of the start
  const members = await listMembers(db, orgId, callback.list_id);
  const span = { start: callback.start, end: callback.end };
  const asOf = { before: utcToLocal(start.at, timeZone), callbackId };
  const current = await orderingInputs(db, orgId, callback.list_id, members, span, timeZone, asOf);
  const storedBy = new Map(inputs.map((i) => [i.user_id, i]));
  const currentBy = new Map(current.map((i) => [i.user_id, i]));
  for (const input of inputs) {
    const now = currentBy.get(input.user_id);
    if (!now) {
      result.differences.push(`user #${input.user_id} is no longer an active member of the list`);
      continue;
    }
    for (const field of COMPARED[ordering]) {
      if ((input[field] ?? null) === (now[field] ?? null)) continue;
      result.input_changes.push({ user_id: input.user_id, field, stored: input[field], current: now[field] });
      result.differences.push(
        `user #${input.user_id}: ${field.replace(/_/g, ' ')} was ${input[field] ?? 'none'}, ` +
          `is ${now[field] ?? 'none'} now`,
      );
    }
  }
  // a member added since is a list edit: not in the stored order, so not a difference of it
  for (const now of current)
    if (!storedBy.has(now.user_id))
      result.notes.push(`user #${now.user_id} joined the list after the callback started`);
  result.current_order = orderCandidates(
    ordering,
    current.filter((i) => isCandidate.has(i.user_id)),
  ).map((i) => i.user_id);
  if (!sameList(result.current_order, result.stored_order))
    result.differences.push(
      `the inputs as they are now order ${listText(result.current_order)}, ` +
        `the record says ${listText(result.stored_order)}`,
    );
  const seals = await checkSeals(db, orgId, callbackId);
  if (!seals.sealed) result.notes.push('the record has no seals: it was written before records were sealed');
  result.differences.push(...seals.differences);
  result.identical = result.differences.length === 0;
  return result;
}
