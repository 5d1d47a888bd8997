import type { Kysely } from 'kysely';
import { createTenantTable, createUniqueIndexOn } from '../schema.js';
import { notNull, nullable } from '../columns.js';

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
    .$call(notNull('integer', 'turn_minutes', 'turns_per_member'))
    .$call(notNull('text', 'opens_at', 'status'))
    .addColumn('turn_index', 'integer', (c) => c.notNull())
    .$call(nullable('text', 'turn_started_at', 'paused_at'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createTenantTable(db, 'bid_turn')
    .$call(notNull('integer', 'round_id', 'turn', 'user_id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('time_off_id', 'integer')
    .$call(nullable('text', 'start_date', 'end_date'))
    .addColumn('time_off_type_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'bid_turn_unique', 'bid_turn', ['organization_id', 'round_id', 'turn']);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['bid_turn', 'bid_round']) await db.schema.dropTable(table).execute();
}
