import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The files crewplan writes hold every tenant's data (and hashes, sealed secrets): each is the
 * server owner's alone, 0600, in a folder crewplan creates 0700. The mode is set with chmod after
 * the file exists, so it holds whatever the process umask is (a mode given at creation is only
 * ANDed with it). A folder that exists already keeps the mode the operator gave it.
 * Decision: no process-wide umask (it would also change files that libraries and child processes
 * write, and a CLI run as a library would change its caller's).
 */
export const OWNER_FILE_MODE = 0o600;
export const OWNER_FOLDER_MODE = 0o700;

/** Creates the folder of `file` (and its parents), owner-only, when it is missing. */
export function ensureFolderOf(file: string): void {
  const folder = dirname(file);
  if (existsSync(folder)) return;
  const created = mkdirSync(folder, { recursive: true, mode: OWNER_FOLDER_MODE });
  // every folder created on the way, from the first: `created` names it
  for (let path = folder; created && path.length >= created.length; path = dirname(path))
    chmodSync(path, OWNER_FOLDER_MODE);
}

/** Makes an existing file owner-only (0600); nothing when it does not exist. */
export function ownerOnly(file: string): void {
  try {
    chmodSync(file, OWNER_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Creates an empty owner-only file (0600) unless it exists; `exclusive` refuses an existing one. */
export function createOwnerOnly(file: string, exclusive = false): void {
  ensureFolderOf(file);
  if (exclusive || !existsSync(file)) closeSync(openSync(file, exclusive ? 'wx' : 'a', OWNER_FILE_MODE));
  ownerOnly(file);
}

/** The files SQLite keeps beside a database: its WAL, shared memory and rollback journal. */
export const sidecarsOf = (database: string) => [`${database}-wal`, `${database}-shm`, `${database}-journal`];

/** A SQLite database and the files beside it, owner-only. */
export function databaseOwnerOnly(database: string): void {
  for (const file of [database, ...sidecarsOf(database)]) ownerOnly(file);
}
