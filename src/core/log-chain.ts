import { orgColumns, orgRows } from './db/org-rows.js';
import { createHash } from 'node:crypto';
import type { Generated, Insertable, Selectable } from 'kysely';
import { compiledOnce } from './db/compiled-once.js';
import type { Db } from './db/transaction.js';
import type { SystemLogTable } from './db/types.js';

/**
 * The system log as a hash chain, one per organization: each entry carries the hash of the entry
 * before it (`prev_hash`) and its own (`hash`, over `prev_hash` and every stored field but the id),
 * and `log_chain_head` holds the newest hash and a revision raised by every append (a part of the
 * organization's data revision, see src/core/response-cache.ts). Editing, deleting or reordering any entry, or
 * deleting the newest, breaks the chain where it happened (`verifyLogChain`).
 *
 * A writer takes the head row first, in its transaction (an upsert, so the row lock is held until
 * commit on PostgreSQL; SQLite runs one transaction at a time): two writers of one organization
 * never read the same head, and the ids they insert follow the chain's order. A writer that knows
 * the head's hash already (the one this process wrote last) takes and moves it in one conditional
 * update instead, which locks the row the same way.
 */
export interface LogChainHeadTable {
  organization_id: number;
  last_hash: string;
  /** Raised by every append and re-chaining (migration 1801). */
  revision: Generated<number>;
}

declare module './db/types.js' {
  interface Database {
    log_chain_head: LogChainHeadTable;
  }
}

/** The hash before an organization's first entry. */
export const GENESIS = '0'.repeat(64);

type ChainedFields = Omit<Insertable<SystemLogTable>, 'id' | 'prev_hash' | 'hash'>;

/** sha256 of the previous hash and the entry's stored fields, in a fixed order. */
export function entryHash(prevHash: string, row: ChainedFields): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        prevHash,
        row.organization_id,
        row.created_at,
        row.action,
        row.entity_type ?? null,
        row.entity_id ?? null,
        row.description,
        row.actor_user_id ?? null,
        row.actor_name,
        row.client_id ?? null,
        row.changes ?? null,
      ]),
    )
    .digest('hex');
}

const takeHeadQuery = compiledOnce((db: Db, organizationId: number) =>
  db
    .insertInto('log_chain_head')
    .values({ organization_id: organizationId, last_hash: GENESIS })
    // a no-op update: it locks the row and returns the hash it holds
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet((eb) => ({ last_hash: eb.ref('log_chain_head.last_hash') })),
    )
    .returning('last_hash'),
);
const moveHeadQuery = compiledOnce((db: Db, organizationId: number, hash: string) =>
  db
    .updateTable('log_chain_head')
    .set((eb) => ({ last_hash: hash, revision: eb('revision', '+', 1) }))
    .where('organization_id', '=', organizationId),
);
const insertLogQuery = compiledOnce((db: Db, row: Insertable<SystemLogTable>) =>
  db.insertInto('system_log').values(row),
);
/** Moves the head from `from` to `to` only if it still holds `from`; a row back when it did (and locks it). */
const advanceHeadQuery = compiledOnce((db: Db, organizationId: number, from: string, to: string) =>
  db
    .updateTable('log_chain_head')
    .set((eb) => ({ last_hash: to, revision: eb('revision', '+', 1) }))
    .where('organization_id', '=', organizationId)
    .where('last_hash', '=', from)
    .returning('organization_id'),
);

/**
 * The newest hash this process put at (or read from) each organization's head: only a guess, since
 * another process, a rolled-back transaction or an import may have moved the head since. A guess is
 * taken only when the head still holds it (advanceHeadQuery), and an entry linked to the hash the head
 * holds is the entry the head's own read would have given: one statement instead of two.
 */
const lastHeads = new Map<number, string>();
const LAST_HEADS_KEPT = 10_000;

function rememberHead(organizationId: number, hash: string): void {
  if (lastHeads.size >= LAST_HEADS_KEPT && !lastHeads.has(organizationId)) lastHeads.clear();
  lastHeads.set(organizationId, hash);
}

/** Rows of one multi-row insert when many are appended (bulk seeds): under every engine's parameter limit. */
const BATCH = 500;

/** Appends entries to the organization's chain, in order; `trx` must be a transaction. */
export async function appendToLogChain(trx: Db, organizationId: number, rows: ChainedFields[]): Promise<void> {
  if (rows.length === 0) return;
  const guess = rows.length === 1 ? lastHeads.get(organizationId) : undefined;
  let chained = guess === undefined ? undefined : chainRows(rows, guess);
  if (chained && (await advanceHeadQuery(trx, organizationId, guess!, chained[0]!.hash)).length === 0)
    chained = undefined;
  if (!chained) {
    const [head] = await takeHeadQuery(trx, organizationId);
    chained = chainRows(rows, head!.last_hash);
    await moveHeadQuery(trx, organizationId, chained[chained.length - 1]!.hash);
  }
  if (chained.length === 1) await insertLogQuery(trx, chained[0]!);
  else
    for (let i = 0; i < chained.length; i += BATCH)
      await trx
        .insertInto('system_log')
        .values(chained.slice(i, i + BATCH))
        .execute();
  rememberHead(organizationId, chained[chained.length - 1]!.hash);
}

/** The chained columns of rows already inserted, in id order, from GENESIS: for bulk writers and imports. */
export function chainRows<T extends ChainedFields>(
  rows: T[],
  from = GENESIS,
): Array<T & { prev_hash: string; hash: string }> {
  let prev = from;
  return rows.map((row) => {
    const hash = entryHash(prev, row);
    const chained = { ...row, prev_hash: prev, hash };
    prev = hash;
    return chained;
  });
}

/** Re-links every entry of an organization in id order (imports, where ids and references were rewritten). */
export async function rechainLog(trx: Db, organizationId: number): Promise<number> {
  let prev = GENESIS;
  let count = 0;
  for await (const batch of logBatches(trx, organizationId)) {
    for (const row of batch) {
      const hash = entryHash(prev, row);
      await trx.updateTable('system_log').set({ prev_hash: prev, hash }).where('id', '=', row.id).execute();
      prev = hash;
      count++;
    }
  }
  await trx
    .insertInto('log_chain_head')
    .values({ organization_id: organizationId, last_hash: prev, revision: 1 })
    .onConflict((oc) =>
      oc
        .column('organization_id')
        .doUpdateSet((eb) => ({ last_hash: prev, revision: eb('log_chain_head.revision', '+', 1) })),
    )
    .execute();
  return count;
}

type LogRow = Selectable<SystemLogTable>;

async function* logBatches(db: Db, organizationId: number, size = 2000): AsyncGenerator<LogRow[]> {
  let after = 0;
  for (;;) {
    const batch = await orgRows(db, 'system_log', organizationId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(size)
      .execute();
    if (batch.length === 0) return;
    yield batch;
    after = batch[batch.length - 1]!.id;
  }
}

export type ChainVerdict =
  | { ok: true; entries: number; head: string }
  | { ok: false; entries: number; entryId: number | null; createdAt: string | null; reason: string };

/**
 * Walks an organization's log in id order and recomputes each hash: the first entry whose stored
 * hash or link does not match, or a head that does not name the last entry, breaks the chain.
 */
export async function verifyLogChain(db: Db, organizationId: number): Promise<ChainVerdict> {
  let prev = GENESIS;
  let entries = 0;
  for await (const batch of logBatches(db, organizationId)) {
    for (const row of batch) {
      const broken = (reason: string): ChainVerdict => ({
        ok: false,
        entries,
        entryId: row.id,
        createdAt: row.created_at,
        reason,
      });
      if (row.prev_hash !== prev)
        return broken(
          entries === 0
            ? 'it does not start the chain: an earlier entry was deleted'
            : 'it does not link to the entry before it: an entry between them was deleted or reordered',
        );
      if (row.hash !== entryHash(prev, row)) return broken('its content does not match its hash: it was edited');
      prev = row.hash;
      entries++;
    }
  }
  const head = await orgColumns(db, 'log_chain_head', organizationId, ['last_hash']).executeTakeFirst();
  if ((head?.last_hash ?? GENESIS) !== prev)
    return {
      ok: false,
      entries,
      entryId: null,
      createdAt: null,
      reason: 'the newest entries were deleted: the chain ends before its recorded head',
    };
  return { ok: true, entries, head: prev };
}
