import type { Kysely } from 'kysely';
import { createIndexOn, createTenantTable } from '../schema.js';
import { notNull, nullable } from '../columns.js';

/**
 * `forced_hire_contact`: every message sent (or not) to tell someone of their forced hire, as
 * `callback_contact` for callbacks (channel, time, result, the provider's receipt), append-only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'forced_hire_contact')
    .$call(notNull('integer', 'forced_hire_id', 'user_id'))
    .addColumn('channel', 'varchar(32)', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('result', 'varchar(16)', (c) => c.notNull())
    .$call(nullable('text', 'receipt', 'detail'))
    .execute();
  await createIndexOn(db, 'forced_hire_contact_org_hire', 'forced_hire_contact', ['organization_id', 'forced_hire_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('forced_hire_contact').execute();
}
