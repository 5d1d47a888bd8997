import type { Kysely } from 'kysely';

/**
 * Progressive sign-in delays per account and known device (core/auth/sign-in-delay.ts), shared by
 * every server process on the database. Times are epoch milliseconds.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sign_in_delay')
    .addColumn('attempt_key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('blocked_until', 'bigint', (c) => c.notNull())
    .addColumn('forget_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_delay_forget_at').on('sign_in_delay').column('forget_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sign_in_delay').execute();
}
