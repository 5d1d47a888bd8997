import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn } from '../schema.js';

/** Idempotency-Key records: the first response to a keyed POST/PUT, replayed to retries for 24 h. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'idempotency_key')
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('content_type', 'text')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'idempotency_key_org_key', 'idempotency_key', ['organization_id', 'idempotency_key'], {
    unique: true,
  });
  await createIndexOn(db, 'idempotency_key_org_created', 'idempotency_key', ['organization_id', 'created_at']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_key').execute();
}
