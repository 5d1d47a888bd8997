import { sql, type Kysely } from 'kysely';
import { createTenantTable, isPostgres, createIndexOn, createUniqueIndexOn } from '../schema.js';
import { nullable, notNull } from '../columns.js';

/**
 * The contract's staffing rules (docs/contract-rules.md):
 *
 * - `off_limit`: "at most `max_off` off per day", scoped to a platoon (the name of the visual
 *   cycles marking its days), an assignment group (a station), a qualifier and/or time off types
 *   (`time_off_type_ids`, a JSON array; empty: every type), with its `action` (warn,
 *   require_approval, refuse).
 * - `time_off_blackout`: dates on which time off of a type may not be requested.
 * - `group_minimum`: how many people an assignment group (a station, a battalion) needs on duty,
 *   and of them how many holding each qualifier (`min_qualified`, a JSON array of
 *   {qualifier_id, count}).
 *
 * The scheduling engine reads `group_minimum` and the assignment groups' membership for staffing,
 * so their writes are announced to the engine cache like migration 1000's tables (SQLite: counted
 * in `schedule_change` as migration 1100 does; PostgreSQL: migration 1120's function).
 */
export const GROUP_STAFFING_TABLES = ['group_minimum', 'assignment_group', 'assignment_group_member'] as const;

const OPERATIONS = ['insert', 'update', 'delete'] as const;

const bump = (organizationId: string) =>
  `insert into schedule_change (organization_id, changes) values (${organizationId}, 1)
    on conflict (organization_id) do update set changes = changes + 1`;

export async function up(db: Kysely<any>): Promise<void> {
  await createTenantTable(db, 'off_limit')
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('max_off', 'integer', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('platoon', 'text')
    .$call(nullable('integer', 'assignment_group_id', 'qualifier_id'))
    .addColumn('time_off_type_ids', 'text', (col) => col.notNull().defaultTo('[]'))
    .$call(notNull('text', 'created_at', 'updated_at'))
    .execute();
  await createIndexOn(db, 'off_limit_org', 'off_limit', ['organization_id']);
  await createTenantTable(db, 'time_off_blackout')
    .addColumn('time_off_type_id', 'integer', (col) => col.notNull())
    .$call(notNull('text', 'start_date', 'end_date'))
    .addColumn('reason', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await createIndexOn(db, 'time_off_blackout_type', 'time_off_blackout', [
    'organization_id',
    'time_off_type_id',
    'start_date',
  ]);
  await createTenantTable(db, 'group_minimum')
    .$call(notNull('integer', 'assignment_group_id', 'min_on_duty'))
    .addColumn('min_qualified', 'text', (col) => col.notNull().defaultTo('[]'))
    .$call(notNull('text', 'created_at', 'updated_at'))
    .execute();
  await createUniqueIndexOn(db, 'group_minimum_group', 'group_minimum', ['organization_id', 'assignment_group_id']);
  for (const table of GROUP_STAFFING_TABLES) {
    if (isPostgres(db)) {
      await sql
        .raw(
          `create trigger ${table}_schedule_changed after insert or update or delete on ${table}
            for each row execute function crewplan_notify_schedule()`,
        )
        .execute(db);
      continue;
    }
    for (const operation of OPERATIONS) {
      const row = operation === 'delete' ? 'old' : 'new';
      await sql
        .raw(
          `create trigger ${table}_schedule_${operation} after ${operation} on ${table}
            begin ${bump(`${row}.organization_id`)}; end`,
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of GROUP_STAFFING_TABLES) {
    if (isPostgres(db)) await sql.raw(`drop trigger ${table}_schedule_changed on ${table}`).execute(db);
    else for (const operation of OPERATIONS) await sql.raw(`drop trigger ${table}_schedule_${operation}`).execute(db);
  }
  await db.schema.dropTable('group_minimum').execute();
  await db.schema.dropTable('time_off_blackout').execute();
  await db.schema.dropTable('off_limit').execute();
}
