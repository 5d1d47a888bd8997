import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn } from '../schema.js';
import { notNull, nullable } from '../columns.js';

/**
 * The transactional outbox (one event per system-log row, written in the same transaction),
 * webhook endpoints with their delivery cursor and retry state, and the delivery log.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'outbox_event')
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .$call(notNull('text', 'type', 'payload', 'created_at'))
    .execute();
  await createIndexOn(db, 'outbox_event_org_id', 'outbox_event', ['organization_id', 'id']);

  await createTenantTable(db, 'webhook_endpoint')
    .$call(notNull('text', 'url', 'secret', 'event_types'))
    .addColumn('description', 'text')
    .addColumn('cursor_event_id', 'integer', (c) => c.notNull())
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(nullable('text', 'next_attempt_at', 'lease_until'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await createIndexOn(db, 'webhook_endpoint_org', 'webhook_endpoint', ['organization_id', 'id']);

  await createTenantTable(db, 'webhook_delivery')
    .$call(notNull('integer', 'endpoint_id', 'outbox_event_id'))
    .$call(notNull('text', 'event_id', 'event_type'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'webhook_delivery_org_endpoint', 'webhook_delivery', [
    'organization_id',
    'endpoint_id',
    'id',
  ]);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['webhook_delivery', 'webhook_endpoint', 'outbox_event']) {
    await db.schema.dropTable(table).execute();
  }
}
