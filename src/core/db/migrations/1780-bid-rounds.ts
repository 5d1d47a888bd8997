import type { Kysely } from 'kysely';
import { createTenantTable } from '../schema.js';

/**
 * Vacation bidding (docs/contract-rules.md, "Vacation bidding"):
 * - `bid_round`: a round, its members in seniority order (JSON, fixed when it is made), its state
 *   (status, the turn recorded last and when it began, a pause);
 * - `bid_turn`: one row per turn taken, a pick (with its time off) or a pass; (round, turn) is unique,
 *   so a turn is taken once however many requests race for it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'bid_round')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('time_off_type_ids', 'text', (c) => c.notNull())
    .addColumn('group_id', 'integer')
    .addColumn('member_ids', 'text', (c) => c.notNull())
    .addColumn('turn_minutes', 'integer', (c) => c.notNull())
    .addColumn('turns_per_member', 'integer', (c) => c.notNull())
    .addColumn('opens_at', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('turn_index', 'integer', (c) => c.notNull())
    .addColumn('turn_started_at', 'text')
    .addColumn('paused_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createTenantTable(db, 'bid_turn')
    .addColumn('round_id', 'integer', (c) => c.notNull())
    .addColumn('turn', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('time_off_id', 'integer')
    .addColumn('start_date', 'text')
    .addColumn('end_date', 'text')
    .addColumn('time_off_type_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('bid_turn_unique')
    .on('bid_turn')
    .columns(['organization_id', 'round_id', 'turn'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['bid_turn', 'bid_round']) await db.schema.dropTable(table).execute();
}
