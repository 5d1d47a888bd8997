import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { notNull, nullable } from '../columns.js';

/** Idempotency-Key records: the first response to a keyed POST/PUT, replayed to retries for 24 h. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'idempotency_key')
    .$call(notNull('text', 'idempotency_key', 'fingerprint'))
    .addColumn('status_code', 'integer')
    .$call(nullable('text', 'content_type', 'response_body'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'idempotency_key_org_key', 'idempotency_key', ['organization_id', 'idempotency_key']);
  await createIndexOn(db, 'idempotency_key_org_created', 'idempotency_key', ['organization_id', 'created_at']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_key').execute();
}
