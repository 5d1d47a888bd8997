import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn } from '../schema.js';
import { nullable } from '../columns.js';

/**
 * Trades that departments can run on (docs/workflows.md, "Trades"): `trade_hours_count_for` says
 * whose hours of work a trade's hours are, `scheduled` (FLSA §7(p)(3), the default) or `worker`;
 * `trade_placement` records each change a filled trade made to the schedule, so cancelling or
 * editing it before it starts undoes exactly those changes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('organization')
    .addColumn('trade_hours_count_for', 'text', (c) => c.notNull().defaultTo('scheduled'))
    .execute();
  await createTenantTable(db, 'trade_placement')
    .addColumn('trade_id', 'integer', (c) => c.notNull())
    /** `inserted` (a shift the trade made), `reassigned` (a shift handed over), `removed` (an occurrence taken off) */
    .addColumn('kind', 'text', (c) => c.notNull())
    .$call(nullable('integer', 'shift_id', 'recurring_shift_id'))
    .addColumn('date', 'text')
    /** JSON: what the row was before (the shift's user, or the occurrence's earlier exception) */
    .addColumn('before', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'trade_placement_trade', 'trade_placement', ['organization_id', 'trade_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('trade_placement').execute();
  await db.schema.alterTable('organization').dropColumn('trade_hours_count_for').execute();
}
