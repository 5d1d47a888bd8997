import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../schema.js';

/**
 * Every write to a table the scheduling engine reads for GET /schedule is announced, so that the
 * schedule's computed days (src/scheduling/cache.ts) are dropped by any process,
 * whoever wrote (an API request, the CLI, the callback runner, a raw statement). Tables outside
 * the engine's reach (day notes, misc hours, callbacks, trades, logs, tokens…) are not: a write
 * there leaves the computed days standing. The organization row counts when anything but its
 * revision changes (its time zone, its work period).
 *
 * - SQLite: the triggers call `crewplan_schedule_changed(organization_id)`, a function that only the
 *   app's connections registered. Migration 1100 replaced them with plain SQL (a counter table).
 * - PostgreSQL: the triggers announce `<schema> schedule <organization_id>` on `crewplan_changes`
 *   (migration 0800's channel); NOTIFY is sent at commit, and identical announcements of one
 *   transaction go out once.
 */
export const ENGINE_TABLES = [
  'assignment',
  'assignment_finalization',
  'assignment_qualifier',
  'certification',
  'label',
  'qualifier',
  'recurring_shift',
  'recurring_shift_exception',
  'rotation',
  'shift',
  'shift_label',
  'shift_qualifier',
  'time_off',
  'time_off_type',
  'user_account',
  'user_certification',
  'user_group',
  'user_group_member',
  'user_qualifier',
  'work_subtype',
  'work_type',
] as const;

const OPERATIONS = ['insert', 'update', 'delete'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`
      create function crewplan_notify_schedule() returns trigger language plpgsql as $$
      declare
        org integer;
      begin
        if tg_table_name = 'organization' then
          org := new.id;
        elsif tg_op = 'DELETE' then
          org := old.organization_id;
        else
          org := new.organization_id;
        end if;
        perform pg_notify('crewplan_changes', tg_table_schema || ' schedule ' || org);
        return null;
      end $$`.execute(db);
    for (const table of ENGINE_TABLES) {
      await sql
        .raw(
          `create trigger ${table}_schedule_changed after insert or update or delete on ${table}
            for each row execute function crewplan_notify_schedule()`,
        )
        .execute(db);
    }
    await sql`create trigger organization_schedule_changed after update on organization
      for each row when (old.revision = new.revision) execute function crewplan_notify_schedule()`.execute(db);
    return;
  }
  for (const table of ENGINE_TABLES) {
    for (const operation of OPERATIONS) {
      const row = operation === 'delete' ? 'old' : 'new';
      await sql
        .raw(
          `create trigger ${table}_schedule_${operation} after ${operation} on ${table}
            begin select crewplan_schedule_changed(${row}.organization_id); end`,
        )
        .execute(db);
    }
  }
  await sql`create trigger organization_schedule_update after update on organization
    when old.revision = new.revision begin select crewplan_schedule_changed(new.id); end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of ENGINE_TABLES) await sql.raw(`drop trigger ${table}_schedule_changed on ${table}`).execute(db);
    await sql`drop trigger organization_schedule_changed on organization`.execute(db);
    await sql`drop function crewplan_notify_schedule()`.execute(db);
    return;
  }
  for (const table of ENGINE_TABLES)
    for (const operation of OPERATIONS) await sql.raw(`drop trigger ${table}_schedule_${operation}`).execute(db);
  await sql`drop trigger organization_schedule_update`.execute(db);
}
