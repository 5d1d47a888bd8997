import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { notNull, nullable } from '../columns.js';

/** Trades (a user's hours taken over by another user) and the users offered each trade. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'trade')
    .addColumn('requesting_user_id', 'integer', (c) => c.notNull())
    .addColumn('accepting_user_id', 'integer')
    .addColumn('approving_user_id', 'integer', (c) => c.notNull())
    .addColumn('approved_by', 'integer')
    .$call(notNull('text', 'start', 'end'))
    .$call(nullable('text', 'swap_start', 'swap_end'))
    .$call(notNull('text', 'status', 'request_date'))
    .$call(nullable('text', 'accepted_at', 'approved_at', 'filled_at', 'notes', 'deleted_at'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'trade_org_start', 'trade', ['organization_id', 'start']);

  await createTenantTable(db, 'trade_user')
    .$call(notNull('integer', 'trade_id', 'user_id'))
    .$call(notNull('text', 'status', 'offered_at'))
    .addColumn('responded_at', 'text')
    .execute();
  await createUniqueIndexOn(db, 'trade_user_trade_user', 'trade_user', ['organization_id', 'trade_id', 'user_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('trade_user').execute();
  await db.schema.dropTable('trade').execute();
}
