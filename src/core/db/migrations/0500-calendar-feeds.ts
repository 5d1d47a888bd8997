import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn } from '../schema.js';
import { nullable } from '../columns.js';

/**
 * Calendar feeds (issue 8): per-user or per-assignment iCalendar feeds at a secret URL. Only the
 * keyed hash of the URL's token is stored; revoking sets revoked_at.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'calendar_feed')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .$call(nullable('integer', 'user_id', 'assignment_id'))
    .addColumn('name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await createIndexOn(db, 'calendar_feed_org', 'calendar_feed', ['organization_id', 'id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('calendar_feed').execute();
}
