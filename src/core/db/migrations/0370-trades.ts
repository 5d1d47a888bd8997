import type { Kysely } from 'kysely';
import { createTenantTable, createIndexOn } from '../schema.js';

/** Trades (a user's hours taken over by another user) and the users offered each trade. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'trade')
    .addColumn('requesting_user_id', 'integer', (c) => c.notNull())
    .addColumn('accepting_user_id', 'integer')
    .addColumn('approving_user_id', 'integer', (c) => c.notNull())
    .addColumn('approved_by', 'integer')
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('end', 'text', (c) => c.notNull())
    .addColumn('swap_start', 'text')
    .addColumn('swap_end', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('request_date', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('approved_at', 'text')
    .addColumn('filled_at', 'text')
    .addColumn('notes', 'text')
    .addColumn('deleted_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await createIndexOn(db, 'trade_org_start', 'trade', ['organization_id', 'start']);

  await createTenantTable(db, 'trade_user')
    .addColumn('trade_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('offered_at', 'text', (c) => c.notNull())
    .addColumn('responded_at', 'text')
    .execute();
  await createIndexOn(db, 'trade_user_trade_user', 'trade_user', ['organization_id', 'trade_id', 'user_id'], {
    unique: true,
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('trade_user').execute();
  await db.schema.dropTable('trade').execute();
}
