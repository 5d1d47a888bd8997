import type { Kysely } from 'kysely';
import { isPostgres } from '../schema.js';

/**
 * Uploaded certification files in the database rather than under the data directory, so that servers on one
 * PostgreSQL share them without a shared disk (src/resources/user-memberships/file-store.ts). A file is its
 * chunks of up to 256 KiB, by `user_certification.file_storage_name` and order; a download reads them one at
 * a time. Files still under `<data dir>/certifications/` are moved in when a server or the CLI next opens the
 * database with that data directory (moveFilesIn), since a migration does not know the data directory.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stored_file_chunk')
    .addColumn('organization_id', 'integer', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('data', isPostgres(db) ? 'bytea' : 'blob', (col) => col.notNull())
    .addPrimaryKeyConstraint('stored_file_chunk_pk', ['name', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stored_file_chunk').execute();
}
