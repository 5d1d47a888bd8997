import type { Kysely } from 'kysely';
import { notNull } from '../columns.js';

/**
 * The address each server process serves the database at, written when it starts listening: the CLI reads it
 * to print the sign-in address of the server that uses the database it opened (src/startup.ts). One row per
 * address; a restart updates its row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('server_listener')
    .addColumn('url', 'text', (col) => col.primaryKey())
    .$call(notNull('text', 'data_dir', 'version', 'started_at'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('server_listener').execute();
}
