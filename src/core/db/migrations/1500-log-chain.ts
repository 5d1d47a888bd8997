import type { Kysely, Selectable } from 'kysely';
import { chainRows } from '../../log-chain.js';
import type { SystemLogTable } from '../types.js';

/**
 * The system log becomes a hash chain per organization (src/core/log-chain.ts): `prev_hash` and
 * `hash` on every entry, the newest hash in `log_chain_head`. Existing entries are chained here, in
 * id order, a batch at a time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('system_log').addColumn('prev_hash', 'text').execute();
  await db.schema.alterTable('system_log').addColumn('hash', 'text').execute();
  await db.schema
    .createTable('log_chain_head')
    .addColumn('organization_id', 'integer', (c) => c.primaryKey())
    .addColumn('last_hash', 'text', (c) => c.notNull())
    .execute();
  const organizations = await db.selectFrom('organization').select('id').execute();
  for (const { id: organizationId } of organizations) {
    let last: string | undefined;
    let after = 0;
    for (;;) {
      const batch = (await db
        .selectFrom('system_log')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(2000)
        .execute()) as Array<Selectable<SystemLogTable>>;
      if (batch.length === 0) break;
      for (const row of chainRows(batch, last)) {
        await db
          .updateTable('system_log')
          .set({ prev_hash: row.prev_hash, hash: row.hash })
          .where('id', '=', row.id)
          .execute();
        last = row.hash;
      }
      after = batch[batch.length - 1].id;
    }
    if (last)
      await db.insertInto('log_chain_head').values({ organization_id: organizationId, last_hash: last }).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('log_chain_head').execute();
  await db.schema.alterTable('system_log').dropColumn('hash').execute();
  await db.schema.alterTable('system_log').dropColumn('prev_hash').execute();
}
