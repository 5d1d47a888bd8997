import type { Insertable } from 'kysely';
import { orgColumns, orgRows } from '../../../core/db/org-rows.js';
import type { Db } from '../../../core/db/transaction.js';
import type {
  CallbackContactRow,
  CallbackContactTable,
  CallbackDecisionLineRow,
  CallbackDecisionLineTable,
  CallbackDecisionRow,
  CallbackDecisionTable,
} from './table.js';

/** Decision records are append-only: this module inserts and reads them, and nothing updates or deletes them. */

export function insertDecision(db: Db, values: Insertable<CallbackDecisionTable>): Promise<CallbackDecisionRow> {
  return db.insertInto('callback_decision').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function insertDecisionLines(
  db: Db,
  rows: Insertable<CallbackDecisionLineTable>[],
): Promise<CallbackDecisionLineRow[]> {
  if (rows.length === 0) return [];
  return db.insertInto('callback_decision_line').values(rows).returningAll().execute();
}

export function insertContact(db: Db, values: Insertable<CallbackContactTable>): Promise<CallbackContactRow> {
  return db.insertInto('callback_contact').values(values).returningAll().executeTakeFirstOrThrow();
}

/** The seals of a callback's records (log entries `callback.record_sealed`), oldest first. */
export function listSeals(db: Db, orgId: number, callbackId: number) {
  return orgColumns(db, 'system_log', orgId, ['id', 'changes'])
    .where('action', '=', SEAL_ACTION)
    .where('entity_type', '=', 'callback')
    .where('entity_id', '=', String(callbackId))
    .orderBy('id')
    .execute();
}

/** The log action whose entry carries the SHA-256 of the decision rows written with it (records.ts). */
export const SEAL_ACTION = 'callback.record_sealed';

/** The record of a runner pass at `at` on the callback, when it has one already. */
export function findPassDecision(db: Db, orgId: number, callbackId: number, at: string) {
  return orgRows(db, 'callback_decision', orgId)
    .where('callback_id', '=', callbackId)
    .where('kind', '=', 'pass')
    .where('at', '=', at)
    .executeTakeFirst();
}

export function listDecisions(db: Db, orgId: number, callbackId: number): Promise<CallbackDecisionRow[]> {
  return orgRows(db, 'callback_decision', orgId).where('callback_id', '=', callbackId).orderBy('id').execute();
}

export function listDecisionLines(db: Db, orgId: number, callbackId: number): Promise<CallbackDecisionLineRow[]> {
  return orgRows(db, 'callback_decision_line', orgId).where('callback_id', '=', callbackId).orderBy('id').execute();
}

export function listContacts(db: Db, orgId: number, callbackId: number): Promise<CallbackContactRow[]> {
  return orgRows(db, 'callback_contact', orgId).where('callback_id', '=', callbackId).orderBy('id').execute();
}

/** Ids of the organization's callbacks that have a start record, oldest first. */
export async function recordedCallbackIds(db: Db, orgId: number): Promise<number[]> {
  const rows = await orgRows(db, 'callback_decision', orgId)
    .where('kind', '=', 'start')
    .orderBy('callback_id')
    .execute();
  return rows.map((r) => r.callback_id);
}

/** One user's lines (newest first), with the record each belongs to. */
export function listUserDecisionLines(db: Db, orgId: number, userId: number, limit: number) {
  return db
    .selectFrom('callback_decision_line as l')
    .innerJoin('callback_decision as d', (join) =>
      join.onRef('d.id', '=', 'l.decision_id').onRef('d.organization_id', '=', 'l.organization_id'),
    )
    .select([
      'l.id',
      'l.callback_id',
      'l.verdict',
      'l.position',
      'l.reason_code',
      'l.reason',
      'd.id as decision_id',
      'd.kind',
      'd.at',
      'd.ordering',
      'd.inputs',
      'd.rules_hash',
    ])
    .where('l.organization_id', '=', orgId)
    .where('l.user_id', '=', userId)
    .orderBy('l.id', 'desc')
    .limit(limit)
    .execute();
}

/** The user's contacts (newest first). */
export function listUserContacts(db: Db, orgId: number, userId: number, limit: number) {
  return orgRows(db, 'callback_contact', orgId)
    .where('user_id', '=', userId)
    .where('purpose', '=', 'offer')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
