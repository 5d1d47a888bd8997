import type { Kysely } from 'kysely';
import { createIndexOn } from '../schema.js';
import { notNull } from '../columns.js';

/**
 * Progressive sign-in delays per account and known device (core/auth/sign-in-delay.ts), shared by
 * every server process on the database. Times are epoch milliseconds.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sign_in_delay')
    .addColumn('attempt_key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .$call(notNull('bigint', 'blocked_until', 'forget_at'))
    .execute();
  await createIndexOn(db, 'sign_in_delay_forget_at', 'sign_in_delay', ['forget_at']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sign_in_delay').execute();
}
