import type { Kysely } from 'kysely';
import { createIndexOn } from '../schema.js';

/**
 * Sign-in attempts per key (an account or a client address) in the current window, shared by
 * every server process on the database (core/auth/attempts.ts). Times are epoch milliseconds.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sign_in_attempt')
    .addColumn('attempt_key', 'text', (c) => c.primaryKey())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('window_ends_at', 'bigint', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'sign_in_attempt_window', 'sign_in_attempt', ['window_ends_at']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sign_in_attempt').execute();
}
