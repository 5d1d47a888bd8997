import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn } from '../schema.js';
import { notNull, nullable } from '../columns.js';

/**
 * Callback decision records (docs/workflows.md, "Decision records"), append-only:
 * - `callback_decision`: one record when a callback starts (its ordering method, the inputs that
 *   ordered its list and the rules in force, with their SHA-256), one per runner pass that acted,
 *   one per answer;
 * - `callback_decision_line`: each person's verdict in a record (a candidate at a position, or
 *   skipped with a reason code and words);
 * - `callback_contact`: every message sent for a callback (channel, time, result, the provider's
 *   receipt when it gives one).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'callback_decision')
    .addColumn('callback_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('ordering', 'varchar(16)')
    .$call(nullable('text', 'inputs', 'rules'))
    .addColumn('rules_hash', 'varchar(64)')
    .execute();
  await createIndexOn(db, 'callback_decision_org_callback', 'callback_decision', ['organization_id', 'callback_id']);
  await createTenantTable(db, 'callback_decision_line')
    .$call(notNull('integer', 'decision_id', 'callback_id', 'user_id'))
    .addColumn('verdict', 'varchar(24)', (c) => c.notNull())
    .addColumn('position', 'integer')
    .addColumn('reason_code', 'varchar(32)')
    .addColumn('reason', 'text')
    .execute();
  await createIndexOn(db, 'callback_decision_line_org_callback', 'callback_decision_line', [
    'organization_id',
    'callback_id',
  ]);
  await createIndexOn(db, 'callback_decision_line_org_user', 'callback_decision_line', ['organization_id', 'user_id']);
  await createTenantTable(db, 'callback_contact')
    .$call(notNull('integer', 'callback_id', 'user_id'))
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('channel', 'varchar(32)', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('result', 'varchar(16)', (c) => c.notNull())
    .$call(nullable('text', 'receipt', 'detail'))
    .execute();
  await createIndexOn(db, 'callback_contact_org_callback', 'callback_contact', ['organization_id', 'callback_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('callback_contact').execute();
  await db.schema.dropTable('callback_decision_line').execute();
  await db.schema.dropTable('callback_decision').execute();
}
