import type { Kysely } from 'kysely';
import { createTenantTable, createUniqueIndexOn } from '../schema.js';
import { notNull } from '../columns.js';

/**
 * The certification expiry notices sent (docs/contract-rules.md, "Certification expiry"): one row per
 * held certification, expiry date and threshold (days before), unique, so each notice goes out once
 * however often the worker runs; a renewed certification (a new expiry date) is told again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'certification_notice')
    .$call(notNull('integer', 'user_certification_id', 'user_id'))
    .addColumn('expires_on', 'text', (c) => c.notNull())
    .addColumn('threshold_days', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .execute();
  await createUniqueIndexOn(db, 'certification_notice_once', 'certification_notice', [
    'user_certification_id',
    'expires_on',
    'threshold_days',
  ]);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('certification_notice').execute();
}
