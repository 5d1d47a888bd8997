import { CompiledQuery, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from './types.js';
import { isPostgres } from './schema.js';

export type Db = Kysely<Database>;

/**
 * Runs fn in one transaction: everything it wrote is committed together or not at all, and the
 * promise settles only once that is durable. Inside a transaction, fn runs as part of it.
 * On SQLite the transactions of concurrent requests are committed in groups ({@link GroupCommit}).
 */
export function withTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  if (isPostgres(db)) return db.transaction().execute(fn);
  let group = groups.get(db);
  if (!group) {
    group = new GroupCommit(db);
    groups.set(db, group);
  }
  return group.run(fn);
}

const groups = new WeakMap<Db, GroupCommit>();

/** SQLite: the commits withTransaction has made on this database so far (0 on PostgreSQL). */
export const groupCommits = (db: Db): number => groups.get(db)?.commits ?? 0;

/** Transactions one commit holds at most, and how long (ms) a group goes on taking new ones. */
const GROUP_LIMIT = 32;
const GROUP_WINDOW_MS = 20;

interface Job {
  fn: (trx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit on SQLite (docs/decisions/0028-sqlite-group-commit-restored.md). SQLite has one
 * writer and, with `synchronous=FULL`, every COMMIT waits for an fsync on the event loop's thread.
 * The transactions waiting their turn run one after another inside one database transaction, each
 * under a savepoint of its own, and one COMMIT makes them all durable:
 * - a transaction that throws is rolled back to its savepoint and fails alone, having written nothing;
 * - none is answered before the COMMIT that holds it; if BEGIN or COMMIT fails, all of its group fail;
 * - they still run one at a time, so a read-then-write inside one cannot interleave with another.
 * A group takes what arrives while it runs, up to GROUP_LIMIT transactions or GROUP_WINDOW_MS.
 */
class GroupCommit {
  private readonly queue: Job[] = [];
  private running = false;
  commits = 0;

  constructor(private readonly db: Db) {}

  run<T>(fn: (trx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) await this.runGroup();
    } finally {
      this.running = false;
    }
  }

  /** The next transaction for the group, after one turn of the event loop if none is waiting yet. */
  private async next(count: number, began: number): Promise<Job | undefined> {
    if (count >= GROUP_LIMIT || performance.now() - began >= GROUP_WINDOW_MS) return undefined;
    // Requests already read from their sockets reach withTransaction within one turn of the loop.
    if (this.queue.length === 0) await new Promise((resolve) => setImmediate(resolve));
    return this.queue.shift();
  }

  private async runGroup(): Promise<void> {
    const settled: Array<{ job: Job; ok: boolean; value: unknown }> = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        const began = performance.now();
        for (let job = this.queue.shift(); job; job = await this.next(settled.length, began)) {
          // kept before it runs: if it ends the whole transaction, it fails with its group
          const entry = { job, ok: false, value: undefined as unknown };
          settled.push(entry);
          Object.assign(entry, await underSavepoint(trx, job.fn));
        }
      });
      this.commits += 1;
    } catch (error) {
      // Nothing of the group is durable. A BEGIN that failed (the write lock held by another
      // process past the busy timeout) took no job yet: those waiting fail with it rather than
      // wait as long again.
      for (const { job } of settled) job.reject(error);
      if (settled.length === 0) for (const job of this.queue.splice(0)) job.reject(error);
      return;
    }
    for (const { job, ok, value } of settled) (ok ? job.resolve : job.reject)(value);
  }
}

const SAVEPOINT = CompiledQuery.raw('savepoint crewplan_request');
const RELEASE = CompiledQuery.raw('release crewplan_request');
const ROLLBACK_TO = CompiledQuery.raw('rollback to crewplan_request');

async function underSavepoint(trx: Db, fn: (trx: Db) => Promise<unknown>): Promise<{ ok: boolean; value: unknown }> {
  await trx.executeQuery(SAVEPOINT);
  try {
    const value = await fn(trx);
    await trx.executeQuery(RELEASE);
    return { ok: true, value };
  } catch (error) {
    // If SQLite ended the whole transaction (a full disk, an I/O error), this throws and the group fails.
    await trx.executeQuery(ROLLBACK_TO);
    await trx.executeQuery(RELEASE);
    return { ok: false, value: error };
  }
}

/**
 * Locks the selected rows until the transaction ends (PostgreSQL `FOR UPDATE`).
 * SQLite needs no row lock: every SQLite transaction runs on the one connection, one at a time
 * (inside a group, one savepoint after another), so a transaction that reads then writes cannot
 * interleave with another.
 */
export function forUpdate<DB, TB extends keyof DB, O>(
  db: Db,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return isPostgres(db) ? query.forUpdate() : query;
}
