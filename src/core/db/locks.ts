import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import { conflict, orNotFound } from '../errors.js';
import { isPostgres } from './schema.js';
import { forUpdate, type Db } from './transaction.js';
import type { Database } from './types.js';

/**
 * The two ways a write that may succeed once keeps one winner, on both engines (docs/security.md,
 * API6). Both must run inside `withTransaction`, and the state they guard is read after the lock
 * is taken, in the same transaction as the write.
 *
 * - `transition`: a row moves from one state to the next (a status, a soft delete). The row is
 *   locked and read again inside the lock; the change is written only while the row is still in the
 *   state read.
 * - `lockUsers`: "check, then insert" about a user's time, where there is no row to lock yet
 *   (no overlapping work, a type's yearly limit, a bank balance).
 * - `lockRowsThenUsers`: a write that changes rows of people's schedules (shifts) and checks their
 *   users' time: the rows, then the users, the one order every such write keeps.
 *
 * PostgreSQL: `SELECT … FOR UPDATE` on the row, and a transaction-level advisory lock per user.
 * SQLite: the process's write transactions run one at a time on its one connection
 * (src/core/db/transaction.ts), so the read inside the transaction already sees every earlier write;
 * another process cannot write in between: the transaction holds the database's write lock from its
 * `begin immediate` (docs/decisions/0029-sqlite-begin-immediate-driver.md).
 */

function assertInTransaction(trx: Db, what: string) {
  if (!trx.isTransaction)
    throw new Error(`${what} must run inside withTransaction: a lock outside a transaction holds nothing`);
}

/** A row of the organization: its table, id and the model name its 404 gives. */
export interface RowTarget<TB extends keyof Database> {
  table: TB;
  orgId: number;
  id: number;
  model: string;
  /** the table soft-deletes: a row with deleted_at set is not found */
  softDeleted?: boolean;
}

/** Reads one row of the organization and holds its lock until the transaction ends; 404 when it is missing. */
export async function lockRowOrThrow<TB extends keyof Database & string>(
  trx: Db,
  target: RowTarget<TB>,
): Promise<Selectable<Database[TB]>> {
  assertInTransaction(trx, `locking ${target.table}`);
  const db = trx as unknown as Kysely<any>;
  const query = db
    .selectFrom(target.table as string)
    .selectAll()
    .where('organization_id', '=', target.orgId)
    .where('id', '=', target.id)
    .$if(target.softDeleted === true, (qb) => qb.where('deleted_at', 'is', null));
  return orNotFound(forUpdate(trx, query).executeTakeFirst(), target.model) as Promise<Selectable<Database[TB]>>;
}

/**
 * Moves one row to its next state, the only way a status column changes. The row is locked and read
 * inside the lock; `decide` checks the state it finds (throwing to refuse: the loser of a race sees
 * the winner's state), does the work that goes with the change (a bank debit, a shift) and returns
 * the columns to set. They are written only where `status` and `deleted_at` still hold what was read.
 */
export async function transition<TB extends keyof Database & string>(
  trx: Db,
  target: RowTarget<TB>,
  decide: (row: Selectable<Database[TB]>) => Promise<Updateable<Database[TB]>> | Updateable<Database[TB]>,
): Promise<{ before: Selectable<Database[TB]>; changes: Updateable<Database[TB]> }> {
  const before = await lockRowOrThrow(trx, target);
  const changes = await decide(before);
  const read = before as Record<string, unknown>;
  const db = trx as unknown as Kysely<any>;
  const result = await db
    .updateTable(target.table as string)
    .set(changes as Record<string, unknown>)
    .where('organization_id', '=', target.orgId)
    .where('id', '=', target.id)
    .$if('status' in read, (qb) => qb.where('status', '=', read.status))
    .$if('deleted_at' in read, (qb) =>
      read.deleted_at === null ? qb.where('deleted_at', 'is', null) : qb.where('deleted_at', '=', read.deleted_at),
    )
    .executeTakeFirst();
  // cannot happen while the lock is held; if a flow ever bypassed it, its loser fails here
  if (Number(result.numUpdatedRows) !== 1)
    throw conflict(`The ${target.model} changed while this request was handled; try again.`);
  return { before, changes };
}

/**
 * Holds every named user's schedule until the transaction ends: checks of what a user already has
 * (overlapping work, yearly limits, bank balances) and the insert they allow are one step.
 * PostgreSQL: `pg_advisory_xact_lock(key of the schema, user id)`, ids in ascending order so two
 * transactions never wait on each other in a circle; take it after any row lock of the same
 * transaction (row first, then users). SQLite: nothing to take (see above).
 */
export async function lockUsers(trx: Db, userIds: Iterable<number>): Promise<void> {
  assertInTransaction(trx, 'lockUsers');
  if (!isPostgres(trx)) return;
  for (const id of [...new Set(userIds)].sort((a, b) => a - b)) {
    await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.crewplan_user'), ${id}::int)`.execute(trx);
  }
}

/**
 * The one lock order of a write to people's schedules (PostgreSQL): rows first, in ascending id
 * order, then the users' locks (lockUsers). Shift edits and deletes (a shift's row, then its users)
 * and trades moving work (their shifts' rows, then both users) take their locks through it, so
 * neither waits for the other in a circle. `rowIds` names the rows; once the users are held it is
 * read again, and when a row came into it meanwhile (placed or moved there by a write committed
 * since), the locks are given back to a savepoint and taken again with that row: no row is locked
 * after the users. Answers the rows locked (a missing id is left out). SQLite: reads the rows
 * (no lock to take, see above).
 */
export async function lockRowsThenUsers<TB extends keyof Database & string>(
  trx: Db,
  target: { table: TB; orgId: number },
  rowIds: () => Promise<number[]>,
  userIds: (rows: Selectable<Database[TB]>[]) => Iterable<number>,
): Promise<Selectable<Database[TB]>[]> {
  assertInTransaction(trx, 'lockRowsThenUsers');
  const db = trx as unknown as Kysely<any>;
  const postgres = isPostgres(trx);
  let ids = [...new Set(await rowIds())].sort((a, b) => a - b);
  for (let attempt = 1; ; attempt += 1) {
    if (postgres) await sql`savepoint crewplan_row_locks`.execute(trx);
    const query = db
      .selectFrom(target.table as string)
      .selectAll()
      .where('organization_id', '=', target.orgId)
      .where('id', 'in', ids.length ? ids : [0])
      .orderBy('id');
    const rows = (await forUpdate(trx, query).execute()) as Selectable<Database[TB]>[];
    await lockUsers(trx, userIds(rows));
    const came = postgres ? (await rowIds()).filter((id) => !ids.includes(id)) : [];
    // a row that keeps coming in after a few turns is locked in place rather than wait for ever
    if (came.length === 0 || attempt >= 5) {
      if (postgres) await sql`release savepoint crewplan_row_locks`.execute(trx);
      return rows;
    }
    await sql`rollback to savepoint crewplan_row_locks`.execute(trx);
    await sql`release savepoint crewplan_row_locks`.execute(trx);
    ids = [...new Set([...ids, ...came])].sort((a, b) => a - b);
  }
}

/**
 * Holds the organization's off limits until the transaction ends (docs/contract-rules.md): the
 * count of who is off on a day and the write it allows (a request, an approval) are one step, so
 * two approvals for a day's last slot never both win. PostgreSQL: `pg_advisory_xact_lock(key of
 * the schema, organization id)`; take it after the row and user locks of the same transaction
 * (row, then users, then this). SQLite: nothing to take (see above).
 */
export async function lockOffLimits(trx: Db, orgId: number): Promise<void> {
  assertInTransaction(trx, 'lockOffLimits');
  if (!isPostgres(trx)) return;
  await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.crewplan_off_limits'), ${orgId}::int)`.execute(
    trx,
  );
}
