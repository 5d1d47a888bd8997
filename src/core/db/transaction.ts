import { CompiledQuery, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from './types.js';
import { isPostgres } from './schema.js';

export type Db = Kysely<Database>;

/**
 * Runs fn in one transaction: everything it wrote is committed together or not at all, and the
 * promise settles only once that is durable.
 * On SQLite the transactions of concurrent requests are committed in groups (see {@link GroupCommit}).
 */
export function withTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  if (isPostgres(db)) return db.transaction().execute(fn);
  let group = groups.get(db);
  if (!group) groups.set(db, (group = new GroupCommit(db)));
  return group.run(fn);
}

const groups = new WeakMap<Db, GroupCommit>();

/** SQLite: the commits made for withTransaction on this database so far (0 on PostgreSQL). */
export const groupCommits = (db: Db): number => groups.get(db)?.commits ?? 0;

/** Transactions one commit holds at most, and how long (ms) a group goes on taking new ones. */
const GROUP_LIMIT = 32;
const GROUP_WINDOW_MS = 20;

interface Job {
  fn: (trx: Db) => Promise<unknown>;
  resolve: (value: any) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit on SQLite. The database has one writer, and with `synchronous=FULL` each commit
 * waits for its fsync; transactions ran one after another anyway (Kysely holds the one connection
 * from BEGIN to COMMIT). So the transactions waiting their turn run one after another inside one
 * database transaction, each under a savepoint of its own, and one COMMIT (one fsync) makes them
 * all durable. A transaction that fails is rolled back to its savepoint and fails alone: it wrote
 * nothing. None is answered before the commit that holds it: if that commit fails, all of its
 * transactions fail. A group takes what arrives while it runs, up to GROUP_LIMIT transactions or
 * GROUP_WINDOW_MS, so a transaction waits for at most that much of others' work.
 */
class GroupCommit {
  private readonly queue: Job[] = [];
  private running = false;
  /** Commits made (tests compare it with the transactions run). */
  commits = 0;

  constructor(private readonly db: Db) {}

  run<T>(fn: (trx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve, reject });
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

  private async runGroup(): Promise<void> {
    const settled: Array<{ job: Job; ok: boolean; value: unknown }> = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        const began = Date.now();
        while (this.queue.length > 0 && settled.length < GROUP_LIMIT && (settled.length === 0 || Date.now() - began < GROUP_WINDOW_MS)) {
          const entry = { job: this.queue.shift()!, ok: false, value: undefined as unknown };
          settled.push(entry);
          Object.assign(entry, await runUnderSavepoint(trx, entry.job.fn));
        }
      });
      this.commits += 1;
    } catch (error) {
      // BEGIN or COMMIT failed: nothing of the group is durable
      for (const { job } of settled) job.reject(error);
      return;
    }
    for (const { job, ok, value } of settled) (ok ? job.resolve : job.reject)(value);
  }
}

const SAVEPOINT = CompiledQuery.raw('savepoint crewplan_request');
const RELEASE = CompiledQuery.raw('release crewplan_request');
const ROLLBACK_TO = CompiledQuery.raw('rollback to crewplan_request');

async function runUnderSavepoint(trx: Db, fn: (trx: Db) => Promise<unknown>): Promise<{ ok: boolean; value: unknown }> {
  await trx.executeQuery(SAVEPOINT);
  try {
    const value = await fn(trx);
    await trx.executeQuery(RELEASE);
    return { ok: true, value };
  } catch (error) {
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
