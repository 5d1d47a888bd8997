import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { isPostgresUrl, type Config } from '../../config.js';
import type { Database } from './types.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The underlying driver, for the few hot paths that use prepared statements directly. */
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
  close(): Promise<void>;
}

// pg returns int8 (count(*), sum of integers) as strings; these values fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

const STATEMENT_CACHE_SIZE = 1000;

/**
 * Kysely's SQLite driver prepares every statement anew; the same few hundred SQL texts recur on
 * every request, so prepared statements are kept by text (least recently used dropped first).
 * Safe: Kysely runs one statement at a time on the connection and better-sqlite3 re-prepares a
 * statement by itself after a schema change. A schema change also drops every kept statement,
 * so that no row shape (below) outlives the columns it was made for.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      if (SCHEMA_CHANGE.test(sql)) statements.clear();
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = withRowShape(sqlite.prepare(sql));
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

type SqliteStatement = ReturnType<SqliteDatabase['prepare']>;
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/**
 * A reading statement whose rows are built by a function made for its columns: better-sqlite3
 * makes each row object property by property from C++, twice as slow as taking the row as an
 * array and filling an object literal of the columns (measured: a 20-column row 22 → 13 µs, 12
 * shift rows 90 → 54 µs). The rows are the same objects: same keys in the same order, a
 * repeated column name keeping its first place and its last value, as better-sqlite3 does.
 */
function withRowShape(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  let columns = statement.columns().map((column) => column.name);
  if (columns.includes('__proto__')) return statement;
  let makeRow = rowMaker(columns);
  statement.raw(true);
  // better-sqlite3 re-prepares by itself after another connection changed the schema: a row of
  // another width means other columns
  const shaped = (row: unknown[]) => {
    if (row.length !== columns.length) {
      columns = statement.columns().map((column) => column.name);
      makeRow = rowMaker(columns);
    }
    return makeRow(row);
  };
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(shaped),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const row of statement.iterate(parameters) as IterableIterator<unknown[]>) yield shaped(row);
    },
  };
}

function rowMaker(columns: string[]): (row: unknown[]) => Record<string, unknown> {
  const fields = columns.map((name, i) => `${JSON.stringify(name)}: row[${i}]`).join(', ');
  return new Function('row', `return { ${fields} };`) as (row: unknown[]) => Record<string, unknown>;
}

export function createDatabase(config: Pick<Config, 'databaseUrl' | 'sqlitePath' | 'sqliteSynchronous' | 'pgSchema' | 'pgPoolSize'>): DatabaseHandle {
  const stats = { queries: 0, writes: 0, tokenReads: 0 };
  // Every statement run, built or prepared (src/core/db/prepared.ts), passes here once it has run.
  const log = (event: LogEvent) => {
    if (event.level === 'query') stats.queries += 1;
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
    return { db, dialect: 'postgres', pool, pgClientConfig, pgSchema: config.pgSchema, stats, close: () => db.destroy() };
  }
  // The database holds password and secret hashes: its folder, file, WAL and shared memory are the
  // owner's alone (SQLite gives the -wal and -shm files the database file's permissions).
  mkdirSync(dirname(config.sqlitePath), { recursive: true, mode: 0o700 });
  if (!existsSync(config.sqlitePath)) closeSync(openSync(config.sqlitePath, 'a', 0o600));
  const sqlite = new SQLite(config.sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  // better-sqlite3 would default to NORMAL, which can lose the last commits on power loss.
  sqlite.pragma(`synchronous = ${config.sqliteSynchronous}`);
  sqlite.pragma('busy_timeout = 5000');
  // Statement journals (each request's savepoint in a group commit: src/core/db/transaction.ts) and
  // temporary sort tables in memory rather than in temporary files: 16 → 6 file writes a request, no
  // file made and deleted per commit (docs/decisions.md, "Database"). Durability rests on the WAL.
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), log });
  return { db, dialect: 'sqlite', sqlite, stats, close: () => db.destroy() };
}
