import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type KyselyPlugin, type LogEvent, type SqliteDatabase } from 'kysely';
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
  /**
   * Counts every statement run through Kysely (tests use it to prove there is no N+1), and the
   * statements that may write (the response cache's sign that something changed in this process).
   */
  stats: { queries: number; writes: number };
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
 * statement by itself after a schema change.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

/** Counts the statements that are not plain selects (inserts, updates, deletes, raw SQL). */
function writeCounter(stats: { writes: number }): KyselyPlugin {
  return {
    transformQuery(args) {
      if (args.node.kind !== 'SelectQueryNode') stats.writes += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
}

export function createDatabase(config: Pick<Config, 'databaseUrl' | 'sqlitePath' | 'sqliteSynchronous' | 'pgSchema' | 'pgPoolSize'>): DatabaseHandle {
  const stats = { queries: 0, writes: 0 };
  const plugins = [writeCounter(stats)];
  const log = (event: LogEvent) => {
    if (event.level === 'query') stats.queries += 1;
  };
  if (isPostgresUrl(config.databaseUrl)) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.pgPoolSize,
      ...(config.pgSchema ? { options: `-c search_path=${config.pgSchema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log, plugins });
    return { db, dialect: 'postgres', pool, stats, close: () => db.destroy() };
  }
  mkdirSync(dirname(config.sqlitePath), { recursive: true });
  const sqlite = new SQLite(config.sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  // better-sqlite3 would default to NORMAL, which can lose the last commits on power loss.
  sqlite.pragma(`synchronous = ${config.sqliteSynchronous}`);
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), log, plugins });
  return { db, dialect: 'sqlite', sqlite, stats, close: () => db.destroy() };
}
