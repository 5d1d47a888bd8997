import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A database of its own for a server the reliability suites start themselves (a child process,
 * or an app with a captured logger): a fresh SQLite file, or with TEST_DATABASE_URL a fresh
 * PostgreSQL schema, dropped by `cleanup`.
 */
export interface ScratchDatabase {
  dataDir: string;
  databaseUrl: string | undefined;
  pgSchema: string | undefined;
  sqlitePath: string;
  /** The environment src/config.ts reads for this database. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

async function onPostgres(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function scratchDatabase(): Promise<ScratchDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crewplan-reliability-'));
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const pgSchema = databaseUrl ? `r_${process.pid}_${randomBytes(4).toString('hex')}` : undefined;
  if (databaseUrl) await onPostgres(databaseUrl, `create schema ${pgSchema}`);
  const sqlitePath = join(dataDir, 'crewplan.sqlite');
  const env: Record<string, string> = { CREWPLAN_DATA_DIR: dataDir };
  if (databaseUrl && pgSchema) Object.assign(env, { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: pgSchema });
  return {
    dataDir,
    databaseUrl,
    pgSchema,
    sqlitePath,
    env,
    async cleanup() {
      if (databaseUrl) await onPostgres(databaseUrl, `drop schema if exists ${pgSchema} cascade`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
