import type { Kysely } from 'kysely';

/**
 * A webhook endpoint's signing secret is stored sealed with the server key (`secret_sealed`,
 * src/core/sealed.ts); `secret` keeps '' for new endpoints. A migration has no server key: each
 * server seals the secrets still in clear when it starts (the webhook worker's start), before it
 * delivers anything.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoint').addColumn('secret_sealed', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoint').dropColumn('secret_sealed').execute();
}
