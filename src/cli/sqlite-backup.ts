import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import { createOwnerOnly, databaseOwnerOnly, OWNER_FILE_MODE, ownerOnly, sidecarsOf } from '../core/db/files.js';

/**
 * SQLite backups (docs/operations.md). PostgreSQL is backed up with pg_dump: these functions are
 * for the SQLite file only.
 */

export interface BackupResult {
  file: string;
  pages: number;
  bytes: number;
}

function integrity(database: SQLite.Database): string {
  const rows = database.pragma('integrity_check') as Array<{ integrity_check: string }>;
  return rows.map((row) => row.integrity_check).join('; ');
}

/**
 * Copies a SQLite database that may be in use (a running server) into `to`, through SQLite's online
 * backup API: every page in one step, so the copy is the database as of one moment (a step reads
 * under one read transaction; in WAL mode writers go on meanwhile). Written beside `to` and renamed
 * into place once complete and checked. The copy is the owner's alone (0600; a folder made for it
 * 0700), whatever the umask: it holds every tenant's data.
 */
export async function backupSqlite(from: string, to: string): Promise<BackupResult> {
  if (!existsSync(from)) throw new Error(`no SQLite database at ${from}`);
  const partial = `${to}.partial`;
  await rm(partial, { force: true });
  for (const file of sidecarsOf(partial)) await rm(file, { force: true });
  // SQLite writes into the empty file made here, and gives its journal the file's mode
  createOwnerOnly(partial, true);
  const source = new SQLite(from, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    // better-sqlite3 copies 100 pages per step and restarts when another connection writes
    // between steps; all remaining pages in one step cannot be overtaken by writers
    const progress = await source.backup(partial, { progress: () => 0x7fffffff });
    const copy = new SQLite(partial, { fileMustExist: true });
    try {
      const check = integrity(copy);
      if (check !== 'ok') throw new Error(`the copy fails PRAGMA integrity_check: ${check}`);
    } finally {
      copy.close();
    }
    databaseOwnerOnly(partial);
    await rename(partial, to);
    return {
      file: to,
      pages: progress.totalPages,
      bytes: progress.totalPages * (source.pragma('page_size', { simple: true }) as number),
    };
  } catch (error) {
    await rm(partial, { force: true });
    for (const file of sidecarsOf(partial)) await rm(file, { force: true });
    throw error;
  } finally {
    source.close();
  }
}

/**
 * Whether another connection has the database open. Leaving WAL mode needs the database to
 * oneself: SQLite refuses it (SQLITE_BUSY) while any other connection, of this process or another,
 * has the file open in WAL mode, as a running crewplan server always has.
 */
function assertNotInUse(path: string): void {
  const database = new SQLite(path, { fileMustExist: true });
  try {
    database.pragma('busy_timeout = 0');
    let mode: unknown;
    try {
      mode = database.pragma('journal_mode = DELETE', { simple: true });
    } catch (error) {
      throw new Error(`the database ${path} is in use (${(error as Error).message}): stop the server first`);
    }
    if (mode !== 'delete') throw new Error(`the database ${path} is in use: stop the server first`);
  } finally {
    database.close();
  }
}

/**
 * Puts a backup in place of the database at `to`, refusing while the database is in use. The backup
 * is checked first (integrity, and crewplan's migrations table); the old file's WAL and shared
 * memory files are removed so that no page of the old database is replayed onto the restored one.
 * The restored file is the owner's alone (0600), whatever the backup's mode and the umask.
 */
export async function restoreSqlite(from: string, to: string): Promise<{ file: string; migration: string | null }> {
  if (!existsSync(from)) throw new Error(`no backup at ${from}`);
  const backup = new SQLite(from, { fileMustExist: true });
  let migration: string | null;
  try {
    const check = integrity(backup);
    if (check !== 'ok') throw new Error(`the backup fails PRAGMA integrity_check: ${check}`);
    const table = backup
      .prepare(`select name from sqlite_master where type = 'table' and name = 'kysely_migration'`)
      .get();
    if (!table) throw new Error(`${from} is not a crewplan database (no migrations table)`);
    const newest = backup.prepare('select name from kysely_migration order by name desc limit 1').get() as
      | { name: string }
      | undefined;
    migration = newest?.name ?? null;
  } finally {
    backup.close();
  }
  if (existsSync(to)) assertNotInUse(to);
  const partial = `${to}.restoring`;
  await rm(partial, { force: true });
  createOwnerOnly(partial, true);
  await pipeline(createReadStream(from), createWriteStream(partial, { mode: OWNER_FILE_MODE }));
  ownerOnly(partial);
  await rm(`${to}-wal`, { force: true });
  await rm(`${to}-shm`, { force: true });
  await rename(partial, to);
  return { file: to, migration };
}
