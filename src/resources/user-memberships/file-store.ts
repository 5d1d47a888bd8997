import { orgColumns } from '../../core/db/org-rows.js';
import { randomUUID } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/types.js';
import { type Db, withTransaction } from '../../core/db/transaction.js';

/**
 * Uploaded certification documents live in the database (migration 1451), on both engines, so that every
 * server of one database serves them and a backup of the database holds them. A file is stored as chunks
 * under a name of our own making (the client's file name is never used) and read back one chunk at a time.
 */

/** Rows of up to this many bytes: a download holds one in memory at a time. */
export const CHUNK_BYTES = 256 * 1024;

export interface StoredFileChunkTable {
  organization_id: number;
  /** `user_certification.file_storage_name` */
  name: string;
  seq: number;
  data: Buffer;
}

declare module '../../core/db/types.js' {
  interface Database {
    stored_file_chunk: StoredFileChunkTable;
  }
}

/** Stores the bytes under a new name, in the caller's transaction; returns the name. */
export async function storeFile(db: Db, orgId: number, data: Buffer): Promise<string> {
  const name = randomUUID();
  await insertChunks(db, orgId, name, data);
  return name;
}

/** `moving`: a chunk already there (another process moving the same file) is left as it is. */
async function insertChunks(db: Db, orgId: number, name: string, data: Buffer, moving = false): Promise<void> {
  const rows = [];
  for (let seq = 0; seq * CHUNK_BYTES < data.length || seq === 0; seq += 1)
    rows.push({ organization_id: orgId, name, seq, data: data.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES) });
  // a few rows per statement: a chunk is a bound parameter, and SQLite binds at most 32766 of them
  for (let start = 0; start < rows.length; start += 8)
    await db
      .insertInto('stored_file_chunk')
      .values(rows.slice(start, start + 8))
      .$if(moving, (qb) => qb.onConflict((conflict) => conflict.columns(['name', 'seq']).doNothing()))
      .execute();
}

async function chunk(db: Db, orgId: number, name: string, seq: number): Promise<Buffer | undefined> {
  const row = await orgColumns(db, 'stored_file_chunk', orgId, ['data'])
    .where('name', '=', name)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row && Buffer.from(row.data);
}

/**
 * The stored file's bytes, read one chunk at a time as the stream is consumed; undefined when the database
 * does not hold it (the first chunk is read before anything is sent).
 */
export async function streamStoredFile(db: Db, orgId: number, name: string): Promise<Readable | undefined> {
  const first = await chunk(db, orgId, name, 0);
  if (!first) return undefined;
  async function* chunks() {
    yield first!;
    for (let seq = 1; ; seq += 1) {
      const next = await chunk(db, orgId, name, seq);
      if (!next) return;
      yield next;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** The stored file's bytes at once (an export); undefined when it is missing. */
export async function readStoredFile(db: Db, orgId: number, name: string): Promise<Buffer | undefined> {
  const rows = await orgColumns(db, 'stored_file_chunk', orgId, ['data'])
    .where('name', '=', name)
    .orderBy('seq')
    .execute();
  return rows.length === 0 ? undefined : Buffer.concat(rows.map((row) => Buffer.from(row.data)));
}

/** Removes the files, in the caller's transaction (the rows that named them go in the same one). */
export async function removeStoredFiles(db: Db, orgId: number, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await db.deleteFrom('stored_file_chunk').where('organization_id', '=', orgId).where('name', 'in', names).execute();
}

/**
 * Moves files uploaded before migration 1451 from `<dataDir>/certifications/` into the database: each file a
 * certification record names and the database does not hold yet, in a transaction of its own; the file on
 * disk is removed once its transaction has committed. Files no record names are left where they are. Safe
 * to run in several processes at once (a name is stored once: its chunks' primary key). Returns how many
 * files moved.
 */
export async function moveFilesIn(db: Kysely<Database>, dataDir: string): Promise<number> {
  const folder = join(dataDir, 'certifications');
  const names = await readdir(folder).catch(() => [] as string[]);
  let moved = 0;
  for (const name of names) {
    const stored = await withTransaction(db, async (trx) => {
      const record = await trx
        .selectFrom('user_certification')
        .select('organization_id')
        .where('file_storage_name', '=', name)
        .executeTakeFirst();
      if (!record) return false;
      const present = await trx
        .selectFrom('stored_file_chunk')
        .select('seq')
        .where('name', '=', name)
        .executeTakeFirst();
      if (!present) await insertChunks(trx, record.organization_id, name, await readFile(join(folder, name)), true);
      return true;
    });
    if (!stored) continue;
    await rm(join(folder, name), { force: true });
    moved += 1;
  }
  return moved;
}
