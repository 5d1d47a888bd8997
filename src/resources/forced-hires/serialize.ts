import type { ExplainedMember } from './order.js';
import type { ForcedHireResponse } from './schemas.js';
import type { ForcedHireContactRow, ForcedHireRow } from './table.js';

export function serializeForcedHire(row: ForcedHireRow, contacts: ForcedHireContactRow[]): ForcedHireResponse {
  return {
    id: row.id,
    status: row.status,
    trigger: row.trigger,
    group_id: row.group_id,
    assignment_id: row.assignment_id,
    date: row.date,
    start: row.start,
    end: row.end,
    user_id: row.user_id,
    shift_id: row.shift_id,
    ordered_by: row.ordered_by,
    callback_id: row.callback_id,
    reason: row.reason,
    notes: row.notes,
    order: JSON.parse(row.explained) as ExplainedMember[],
    rules: row.rules === null ? null : JSON.parse(row.rules),
    rules_hash: row.rules_hash,
    contacts: contacts.map(({ channel, at, result, receipt, detail }) => ({ channel, at, result, receipt, detail })),
    created_at: row.created_at,
  };
}
