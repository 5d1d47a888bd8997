import type { Kysely } from 'kysely';
import { createTenantTable } from '../schema.js';

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
    .addColumn('inputs', 'text')
    .addColumn('rules', 'text')
    .addColumn('rules_hash', 'varchar(64)')
    .execute();
  await db.schema
    .createIndex('callback_decision_org_callback')
    .on('callback_decision')
    .columns(['organization_id', 'callback_id'])
    .execute();
  await createTenantTable(db, 'callback_decision_line')
    .addColumn('decision_id', 'integer', (c) => c.notNull())
    .addColumn('callback_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('verdict', 'varchar(24)', (c) => c.notNull())
    .addColumn('position', 'integer')
    .addColumn('reason_code', 'varchar(32)')
    .addColumn('reason', 'text')
    .execute();
  await db.schema
    .createIndex('callback_decision_line_org_callback')
    .on('callback_decision_line')
    .columns(['organization_id', 'callback_id'])
    .execute();
  await db.schema
    .createIndex('callback_decision_line_org_user')
    .on('callback_decision_line')
    .columns(['organization_id', 'user_id'])
    .execute();
  await createTenantTable(db, 'callback_contact')
    .addColumn('callback_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('channel', 'varchar(32)', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('result', 'varchar(16)', (c) => c.notNull())
    .addColumn('receipt', 'text')
    .addColumn('detail', 'text')
    .execute();
  await db.schema
    .createIndex('callback_contact_org_callback')
    .on('callback_contact')
    .columns(['organization_id', 'callback_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('callback_contact').execute();
  await db.schema.dropTable('callback_decision_line').execute();
  await db.schema.dropTable('callback_decision').execute();
}
