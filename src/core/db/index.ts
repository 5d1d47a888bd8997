import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
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
  /** Counts every statement run through Kysely (tests use it to prove there is no N+1). */
  stats: { queries: number };
  close(): Promise<void>;
}

// pg returns int8 (count(*), sum of integers) as strings; these values fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

export function createDatabase(config: Pick<Config, 'databaseUrl' | 'sqlitePath' | 'sqliteSynchronous' | 'pgSchema' | 'pgPoolSize'>): DatabaseHandle {
  const stats = { queries: 0 };
  const log = (event: LogEvent) => {
    if (event.level === 'query') stats.queries += 1;
  };
  if (isPostgresUrl(config.databaseUrl)) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.pgPoolSize,
      ...(config.pgSchema ? { options: `-c search_path=${config.pgSchema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
    return { db, dialect: 'postgres', pool, stats, close: () => db.destroy() };
  }
  mkdirSync(dirname(config.sqlitePath), { recursive: true });
  const sqlite = new SQLite(config.sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  // better-sqlite3 would default to NORMAL, which can lose the last commits on power loss.
  sqlite.pragma(`synchronous = ${config.sqliteSynchronous}`);
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), log });
  return { db, dialect: 'sqlite', sqlite, stats, close: () => db.destroy() };
}
