import SQLite from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type LogEvent,
  type SqliteDatabase,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import { isPostgresUrl, type Config } from '../../config.js';
import { createOwnerOnly, databaseOwnerOnly } from './files.js';
import type { Database } from './types.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The underlying driver, for the bearer token lookup (src/core/auth/credentials.ts). */
  sqlite?: SQLite.Database;
  pool?: pg.Pool;
  /** PostgreSQL: how to open a connection of one's own (the change listener's). */
  pgClientConfig?: pg.ClientConfig;
  /** PostgreSQL: the schema named by the configuration (search_path), if any. */
  pgSchema?: string;
  /**
   * Counts every statement run through Kysely (tests use it to prove there is no N+1), and the
   * statements that may write (the response cache's sign that something changed in this process),
   * and the bearer token reads (src/core/auth/credentials.ts).
   */
  stats: { queries: number; writes: number; tokenReads: number };
  /**
   * Listeners told the SQL text of every statement run through Kysely (or counted like one), once
   * it has run: the cache-coverage test reads the tables a request reads with it.
   */
  queryLog: Set<(sql: string) => void>;
  close(): Promise<void>;
}

// pg returns int8 (count(*), sum of integers) as strings; these values fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/**
 * Kysely's SQLite dialect with transactions that take the write lock when they begin
 * (`begin immediate`), as SQLite advises for a transaction that will write. A deferred transaction
 * reads first and asks for the lock at its first write: when another process (the CLI, a second
 * server) committed in between, that write fails at once with SQLITE_BUSY, which the busy timeout
 * cannot help. Taken at `begin`, the lock is waited for (busy_timeout), and what the transaction
 * reads is the latest state until it commits. Kysely offers no supported way to ask for it
 * (docs/decisions/0029-sqlite-begin-immediate-driver.md).
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');

/** A transaction set `read only` (a consistent snapshot: an export) begins deferred and blocks no writer. */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    if (settings?.accessMode === 'read only') await super.beginTransaction(connection);
    else await connection.executeQuery(BEGIN_IMMEDIATE);
  }
}

/**
 * Kysely's SQLite driver prepares every statement anew; the same few hundred SQL texts recur on
 * every request, so prepared statements are kept by text (lru-cache, the least recently used
 * dropped first). Safe: Kysely runs one statement at a time on the connection, and SQLite
 * re-prepares a statement by itself after a schema change.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new LRUCache<string, SQLite.Statement>({ max: 1000, memoMethod: (sql) => sqlite.prepare(sql) });
  return { close: () => sqlite.close(), prepare: (sql: string) => statements.memo(sql) };
}

export function createDatabase(
  config: Pick<Config, 'databaseUrl' | 'sqlitePath' | 'sqliteSynchronous' | 'pgSchema' | 'pgPoolSize'> &
    Partial<Pick<Config, 'sqliteBusyTimeoutMs'>>,
): DatabaseHandle {
  const stats = { queries: 0, writes: 0, tokenReads: 0 };
  const queryLog = new Set<(sql: string) => void>();
  // Every statement run through Kysely passes here once it has run.
  const log = (event: LogEvent) => {
    if (event.level === 'query') stats.queries += 1;
    for (const listener of queryLog) listener(event.query.sql);
    // counted when it fails too: a caller comparing counts then only ever distrusts more
    if (event.query.query.kind !== 'SelectQueryNode') stats.writes += 1;
  };
  if (isPostgresUrl(config.databaseUrl)) {
    const pgClientConfig: pg.ClientConfig = {
      connectionString: config.databaseUrl,
      ...(config.pgSchema ? { options: `-c search_path=${config.pgSchema}` } : {}),
    };
    const pool = new pg.Pool({ ...pgClientConfig, max: config.pgPoolSize });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
    return {
      db,
      dialect: 'postgres',
      pool,
      pgClientConfig,
      pgSchema: config.pgSchema,
      stats,
      queryLog,
      close: () => db.destroy(),
    };
  }
  // The database holds every tenant's data: its folder (when crewplan creates it), file, WAL and
  // shared memory are the owner's alone (core/db/files.ts). SQLite gives the -wal and -shm files it
  // creates the database file's mode; a file restored or copied in with another mode, and the WAL
  // files of an earlier run, are set to 0600 here.
  createOwnerOnly(config.sqlitePath);
  databaseOwnerOnly(config.sqlitePath);
  const sqlite = new SQLite(config.sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  databaseOwnerOnly(config.sqlitePath);
  // better-sqlite3 would default to NORMAL, which can lose the last commits on power loss.
  sqlite.pragma(`synchronous = ${config.sqliteSynchronous}`);
  sqlite.pragma(`busy_timeout = ${config.sqliteBusyTimeoutMs ?? 5000}`);
  // Statement journals and temporary sort tables in memory rather than in temporary files
  // (docs/decisions/0005-sqlite-durability-and-sharing.md). Durability rests on the WAL.
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
    log,
  });
  return { db, dialect: 'sqlite', sqlite, stats, queryLog, close: () => db.destroy() };
}
