import type { Db } from '../../core/db/transaction.js';
import { sealHash } from '../callbacks/decisions/records.js';
import {
  listContacts,
  listDecisionLines,
  listDecisions,
  listSeals,
  recordedCallbackIds,
} from '../callbacks/decisions/repository.js';

interface SealPayload {
  decision_id: number | null;
  line_ids: number[];
  contact_ids: number[];
  sha256: string;
}

/**
 * Checks a callback's decision rows against their seals (log entries `callback.record_sealed`, records.ts):
 * each seal's rows must still hash to the SHA-256 it carries, and every row must be in a seal. Answers the
 * differences in words, naming the record; `sealed` is false for records written before seals were kept.
 */
export async function checkSeals(
  db: Db,
  orgId: number,
  callbackId: number,
): Promise<{ sealed: boolean; differences: string[] }> {
  const [seals, decisions, lines, contacts] = await Promise.all([
    listSeals(db, orgId, callbackId),
    listDecisions(db, orgId, callbackId),
    listDecisionLines(db, orgId, callbackId),
    listContacts(db, orgId, callbackId),
  ]);
  if (seals.length === 0) return { sealed: false, differences: [] };
  const decisionBy = new Map(decisions.map((d) => [d.id, d]));
  const lineBy = new Map(lines.map((l) => [l.id, l]));
  const contactBy = new Map(contacts.map((c) => [c.id, c]));
  const covered = { decisions: new Set<number>(), lines: new Set<number>(), contacts: new Set<number>() };
  const differences: string[] = [];
  for (const entry of seals) {
    const payload = (JSON.parse(entry.changes ?? '{}') as { after?: SealPayload }).after;
    if (!payload) continue;
    const decision = payload.decision_id === null ? undefined : decisionBy.get(payload.decision_id);
    const sealedLines = payload.line_ids.map((id) => lineBy.get(id));
    const sealedContacts = payload.contact_ids.map((id) => contactBy.get(id));
    const recordId = payload.decision_id ?? sealedLines.find(Boolean)?.decision_id;
    const what = recordId === undefined ? 'the contacts' : `decision record #${recordId}`;
    const missing = [
      ...(payload.decision_id !== null && !decision ? [`record #${payload.decision_id}`] : []),
      ...payload.line_ids.filter((_, i) => !sealedLines[i]).map((id) => `line #${id}`),
      ...payload.contact_ids.filter((_, i) => !sealedContacts[i]).map((id) => `contact #${id}`),
    ];
    if (payload.decision_id !== null) covered.decisions.add(payload.decision_id);
    for (const id of payload.line_ids) covered.lines.add(id);
    for (const id of payload.contact_ids) covered.contacts.add(id);
    if (missing.length) {
      differences.push(`${what}: ${missing.join(', ')} sealed by log entry #${entry.id} was deleted`);
      continue;
    }
    const hash = sealHash({
      decision,
      lines: sealedLines.map((l) => l!),
      contacts: sealedContacts.map((c) => c!),
    });
    if (hash === payload.sha256) continue;
    const rows = [
      ...(decision ? ['its head'] : []),
      ...payload.line_ids.map((id) => `line #${id}`),
      ...payload.contact_ids.map((id) => `contact #${id}`),
    ];
    differences.push(
      `${what} (${rows.join(', ')}) no longer matches the SHA-256 sealed by log entry #${entry.id}: ` +
        'edited after it was written',
    );
  }
  // rows older than a table's first sealed row were written before seals were kept
  const after = (ids: Set<number>) => (id: number) => ids.size > 0 && !ids.has(id) && id > Math.min(...ids);
  const unsealed = [
    ...decisions.filter((d) => after(covered.decisions)(d.id)).map((d) => `record #${d.id}`),
    ...lines.filter((l) => after(covered.lines)(l.id)).map((l) => `line #${l.id} of record #${l.decision_id}`),
    ...contacts.filter((c) => after(covered.contacts)(c.id)).map((c) => `contact #${c.id}`),
  ];
  if (unsealed.length) differences.push(`${unsealed.join(', ')} is in no seal: added after the fact`);
  return { sealed: true, differences };
}

/** `checkSeals` for every callback of the organization with a decision record (`log verify`). */
export async function checkOrganizationSeals(
  db: Db,
  orgId: number,
): Promise<{ checked: number; differences: Array<{ callback_id: number; difference: string }> }> {
  const ids = await recordedCallbackIds(db, orgId);
  const differences: Array<{ callback_id: number; difference: string }> = [];
  for (const id of ids)
    for (const difference of (await checkSeals(db, orgId, id)).differences)
      differences.push({ callback_id: id, difference });
  return { checked: ids.length, differences };
}
