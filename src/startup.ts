import { readFileSync, statSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { Database } from './core/db/types.js';
import { dirname, resolve } from 'node:path';
import { type Config, DEFAULT_DATA_DIR, isPostgresUrl, maskPassword, type Storage } from './config.js';

/**
 * What the server and the CLI share before and while they open the database: the checks of the data
 * directory and the SQLite file's folder, the database's name for people, and start-up failures told in a
 * sentence or two (docs/operations.md, "Start-up").
 */

/** A failure told to people: its message alone is printed, never a stack. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** The version in package.json (one folder above both src/ and dist/). */
export function version(): string {
  const file = new URL('../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The database for people: engine and file, or the PostgreSQL URL with its password masked. */
export function describeDatabase(config: Pick<Config, 'databaseUrl' | 'sqlitePath' | 'pgSchema'>): string {
  if (!isPostgresUrl(config.databaseUrl)) return `SQLite ${config.sqlitePath}`;
  return `PostgreSQL ${maskPassword(config.databaseUrl)}${config.pgSchema ? ` (schema ${config.pgSchema})` : ''}`;
}

function kindOf(path: string): 'missing' | 'directory' | 'file' {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

/**
 * Refuses, before anything is created, a data directory that is a file, a SQLite database that is a
 * directory, and a folder that does not exist: only the default data directory is created unasked, any
 * other with `create` (the `--create` option). A typo'd path then never starts on an empty database.
 */
export function checkStorage(storage: Storage, options: { create: boolean; secretKeyFile: boolean }): void {
  const postgres = isPostgresUrl(storage.databaseUrl);
  const isDefault = storage.dataDir === resolve(DEFAULT_DATA_DIR);
  const dataDirKind = kindOf(storage.dataDir);
  if (dataDirKind === 'file')
    throw new StartupError(
      `The data directory ${storage.dataDir} (CREWPLAN_DATA_DIR) is a file, not a directory: move the file ` +
        'away or set CREWPLAN_DATA_DIR to a directory.',
    );
  const dataDirNeeded = options.secretKeyFile || (!postgres && dirname(storage.sqlitePath) === storage.dataDir);
  if (dataDirKind === 'missing' && dataDirNeeded && !isDefault && !options.create)
    throw new StartupError(
      `The data directory ${storage.dataDir} (CREWPLAN_DATA_DIR) does not exist: create it, correct ` +
        'CREWPLAN_DATA_DIR, or pass --create to have it created.',
    );
  if (postgres) return;
  if (kindOf(storage.sqlitePath) === 'directory')
    throw new StartupError(
      `The SQLite database ${storage.sqlitePath} is a directory: set DATABASE_URL to a file in it, e.g. ` +
        `${resolve(storage.sqlitePath, 'crewplan.sqlite')}.`,
    );
  const folder = dirname(storage.sqlitePath);
  const folderKind = kindOf(folder);
  if (folderKind === 'file')
    throw new StartupError(`The SQLite database's folder ${folder} is a file, not a directory: correct DATABASE_URL.`);
  if (folderKind === 'missing' && !(folder === storage.dataDir && isDefault) && !options.create)
    throw new StartupError(
      `The folder of the SQLite database ${storage.sqlitePath} does not exist: create ${folder}, correct ` +
        'DATABASE_URL (or CREWPLAN_DATA_DIR), or pass --create to have it created.',
    );
}

type SystemError = Error & { code?: string; address?: string; port?: number; path?: string; syscall?: string };

function pgHost(config: Pick<Config, 'databaseUrl'>): string {
  try {
    const url = new URL(config.databaseUrl ?? '');
    return `${url.hostname}:${url.port || 5432}`;
  } catch {
    return 'the host in DATABASE_URL';
  }
}

/**
 * A start-up failure in a sentence or two: what failed, the path or host, what to do. Errors without a
 * known cause keep their own message, prefixed with the database they happened on.
 */
export function startupMessage(
  error: unknown,
  config: Pick<Config, 'databaseUrl' | 'sqlitePath' | 'pgSchema' | 'dataDir' | 'host' | 'port'> | undefined,
): string {
  if (!(error instanceof Error)) return String(error);
  if (error instanceof StartupError || !config) return error.message;
  // the first error of the chain (a failed migration's cause, …) that names a system or driver code
  let failure = error as SystemError;
  for (let next: unknown = error; next instanceof Error; next = next.cause)
    if ((next as SystemError).code) {
      failure = next as SystemError;
      break;
    }
  const database = describeDatabase(config);
  const postgres = isPostgresUrl(config.databaseUrl);
  const code = failure.code ?? '';
  if (postgres && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(code))
    return (
      `PostgreSQL at ${pgHost(config)} cannot be reached (${code}): start it, or correct the host and port in ` +
      `DATABASE_URL (${database}).`
    );
  if (postgres && code === '28P01')
    return `PostgreSQL at ${pgHost(config)} refused the user or password in DATABASE_URL: correct them.`;
  if (postgres && code === '3D000')
    return `PostgreSQL at ${pgHost(config)} has no such database (${database}): create it or correct DATABASE_URL.`;
  if (code === 'EADDRINUSE')
    return `Port ${config.port} on ${config.host} is already in use: stop the other server or set PORT.`;
  if (code === 'EACCES' && failure.syscall === 'listen')
    return `Listening on port ${config.port} of ${config.host} is not permitted: set PORT to 1024 or above.`;
  if (code.startsWith('SQLITE_') || ['EACCES', 'EPERM', 'ENOENT', 'EEXIST', 'ENOTDIR', 'EISDIR'].includes(code)) {
    const path = failure.path ?? (postgres ? config.dataDir : config.sqlitePath);
    const reason = failure.message.replace(/^\w+: /, '');
    return `Cannot open ${path} (${code}: ${reason}): check that it is a file this user may read and write.`;
  }
  return `${error.message} (${database})`;
}

/** The URL the server listens on, as configured: PUBLIC_BASE_URL, else HOST and PORT. */
export function listenUrl(config: Pick<Config, 'host' | 'port'>): string {
  return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
}

/** What the first log line and an operator's GET /readyz tell: database (password masked), data dir, URL, version. */
export function startupFacts(config: Readonly<Config>) {
  return {
    database: describeDatabase(config),
    data_dir: config.dataDir,
    url: listenUrl(config),
    version: version(),
  };
}

declare module './core/db/types.js' {
  interface Database {
    server_listener: ServerListenerTable;
  }
}

/** Migration 1450: the address each server process serves the database at. */
export interface ServerListenerTable {
  url: string;
  data_dir: string;
  version: string;
  /** UTC ISO instant */
  started_at: string;
}

const WILDCARD_OR_LOOPBACK = new Set(['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost']);

/** Where people reach the server: PUBLIC_BASE_URL, else localhost (or HOST) and PORT. */
export function publicUrl(config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  return WILDCARD_OR_LOOPBACK.has(config.host) ? `http://localhost:${config.port}` : listenUrl(config);
}

/** Records, once the server listens, where it serves this database (the CLI's sign-in address). */
export async function recordServer(db: Kysely<Database>, config: Readonly<Config>): Promise<void> {
  const row = {
    url: publicUrl(config),
    data_dir: config.dataDir,
    version: version(),
    started_at: new Date().toISOString(),
  };
  await db
    .insertInto('server_listener')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('url').doUpdateSet({ data_dir: row.data_dir, version: row.version, started_at: row.started_at }),
    )
    .execute();
}

/** The address of the server that started on this database last, if any did. */
export async function lastServerUrl(db: Kysely<Database>): Promise<string | undefined> {
  const row = await db
    .selectFrom('server_listener')
    .select('url')
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.url;
}
