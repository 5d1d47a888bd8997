import type { Kysely } from 'kysely';

/**
 * Bid turn notices (docs/contract-rules.md, "Vacation bidding"): `bid_round.notified_turn`, the
 * last turn whose member was told it began (null: none yet); raised before the notice is sent.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bid_round').addColumn('notified_turn', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bid_round').dropColumn('notified_turn').execute();
}
