import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../schema.js';

/**
 * `log_chain_head.revision`, raised by every append to the organization's log, whichever process
 * or background task wrote it: the organization's data revision on PostgreSQL is the sum of it and
 * `organization.revision` (src/core/response-cache.ts), so a response computed before a log entry
 * (GET /logs) no longer holds after it. On PostgreSQL the raise is announced (`log`, beside migration
 * 0800's `organization`), so that servers keeping the revision in memory read it anew.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('log_chain_head')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (!isPostgres(db)) return;
  await sql`
    create function crewplan_notify_log_append() returns trigger language plpgsql as $$
    begin
      perform pg_notify('crewplan_changes', tg_table_schema || ' log ' || new.organization_id);
      return null;
    end $$`.execute(db);
  await sql`create trigger log_chain_head_moved after insert or update of revision on log_chain_head
    for each row execute function crewplan_notify_log_append()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger log_chain_head_moved on log_chain_head`.execute(db);
    await sql`drop function crewplan_notify_log_append()`.execute(db);
  }
  await db.schema.alterTable('log_chain_head').dropColumn('revision').execute();
}
