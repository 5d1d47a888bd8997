import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../schema.js';
import { ENGINE_TABLES } from './1000-schedule-changes.js';

/**
 * SQLite: migration 1000's triggers called `crewplan_schedule_changed`, a function only the app's
 * connections register, so a connection opened elsewhere (the `sqlite3` shell, another tool) could
 * not write to the tables the schedule's engine reads. Its triggers are replaced by plain SQL: each
 * write counts one more change of the organization in `schedule_change`, which any connection can
 * do and the app reads before it trusts the schedule's computed days
 * (src/scheduling/cache.ts).
 *
 * PostgreSQL keeps migration 1000's announcements (NOTIFY at commit): a counter row written by
 * every transaction that touches the engine's tables would make concurrent writers of one
 * organization wait for each other. The table is created there too, empty, so that both engines
 * have the same tables.
 */
const OPERATIONS = ['insert', 'update', 'delete'] as const;

const bump = (organizationId: string) =>
  `insert into schedule_change (organization_id, changes) values (${organizationId}, 1)
    on conflict (organization_id) do update set changes = changes + 1`;

/** SQLite: each engine table's triggers, and the organization's, remade to run `action(organization id)`. */
async function replaceTriggers(db: Kysely<any>, action: (organizationId: string) => string): Promise<void> {
  for (const table of ENGINE_TABLES) {
    for (const operation of OPERATIONS) {
      const row = operation === 'delete' ? 'old' : 'new';
      await sql.raw(`drop trigger ${table}_schedule_${operation}`).execute(db);
      await sql
        .raw(
          `create trigger ${table}_schedule_${operation} after ${operation} on ${table}
            begin ${action(`${row}.organization_id`)}; end`,
        )
        .execute(db);
    }
  }
  await sql`drop trigger organization_schedule_update`.execute(db);
  await sql
    .raw(
      `create trigger organization_schedule_update after update on organization
        when old.revision = new.revision begin ${action('new.id')}; end`,
    )
    .execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('schedule_change')
    .addColumn('organization_id', 'integer', (col) => col.primaryKey())
    .addColumn('changes', 'integer', (col) => col.notNull())
    .execute();
  if (!isPostgres(db)) await replaceTriggers(db, bump);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db))
    await replaceTriggers(db, (organizationId) => `select crewplan_schedule_changed(${organizationId})`);
  await db.schema.dropTable('schedule_change').execute();
}
