import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn } from '../schema.js';
import { notNull } from '../columns.js';

/**
 * Web app sessions (issue 10): a signed-in user's browser session. Only the keyed hash of the
 * cookie's random id is stored; a session ends at expires_at or on sign-out (row deleted).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'web_session')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .$call(notNull('text', 'created_at', 'expires_at'))
    .execute();
  await createIndexOn(db, 'web_session_user', 'web_session', ['organization_id', 'user_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('web_session').execute();
}
