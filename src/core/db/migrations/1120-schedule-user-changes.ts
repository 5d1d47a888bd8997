import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../schema.js';
import { notNull } from '../columns.js';

/**
 * A write to a user's shifts or time off names the user, so that the schedule's computed days are
 * patched for that user instead of computed anew for everyone (src/scheduling/cache.ts).
 * Writes to the other tables the engine reads still drop the organization's computed days.
 *
 * - SQLite: the triggers of `shift` and `time_off` append (organization, user) to
 *   `schedule_user_change` instead of counting in `schedule_change`; each append drops the rows
 *   more than KEPT_ROWS behind it, so the table stays small.
 * - PostgreSQL: their announcements carry the user: `<schema> schedule <organization> <user>`.
 */
export const USER_TABLES = ['shift', 'time_off'] as const;
/** How many of the latest rows `schedule_user_change` keeps (SQLite). */
export const KEPT_ROWS = 4096;

const OPERATIONS = ['insert', 'update', 'delete'] as const;

const bump = (organizationId: string) =>
  `insert into schedule_change (organization_id, changes) values (${organizationId}, 1)
    on conflict (organization_id) do update set changes = changes + 1`;

const append = (row: 'old' | 'new') =>
  `insert into schedule_user_change (organization_id, user_id) values (${row}.organization_id, ${row}.user_id);
   delete from schedule_user_change where seq <= last_insert_rowid() - ${KEPT_ROWS}`;

/** SQLite: what each of the table's triggers runs. */
function sqliteActions(perUser: boolean): Record<(typeof OPERATIONS)[number], string> {
  if (!perUser)
    return {
      insert: bump('new.organization_id'),
      update: bump('new.organization_id'),
      delete: bump('old.organization_id'),
    };
  return {
    insert: append('new'),
    // a move to another user names both
    update: `${append('old')}; insert into schedule_user_change (organization_id, user_id)
      select new.organization_id, new.user_id where new.user_id is not old.user_id`,
    delete: append('old'),
  };
}

async function replaceSqliteTriggers(db: Kysely<any>, perUser: boolean): Promise<void> {
  const actions = sqliteActions(perUser);
  for (const table of USER_TABLES) {
    for (const operation of OPERATIONS) {
      await sql.raw(`drop trigger ${table}_schedule_${operation}`).execute(db);
      await sql
        .raw(
          `create trigger ${table}_schedule_${operation} after ${operation} on ${table} ` +
            `begin ${actions[operation]}; end`,
        )
        .execute(db);
    }
  }
}

/** PostgreSQL: migration 1000's announcing function, with the user for `USER_TABLES` when `perUser`. */
const notifyFunction = (perUser: boolean) => `
  create or replace function crewplan_notify_schedule() returns trigger language plpgsql as $$
  declare
    org integer;
    prefix text;
  begin
    if tg_table_name = 'organization' then
      org := new.id;
    elsif tg_op = 'DELETE' then
      org := old.organization_id;
    else
      org := new.organization_id;
    end if;
    prefix := tg_table_schema || ' schedule ' || org;
    if ${perUser ? `tg_table_name in (${USER_TABLES.map((t) => `'${t}'`).join(', ')})` : 'false'} then
      if tg_op <> 'INSERT' then
        perform pg_notify('crewplan_changes', prefix || ' ' || old.user_id);
      end if;
      -- a move to another user names both
      if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.user_id is distinct from old.user_id) then
        perform pg_notify('crewplan_changes', prefix || ' ' || new.user_id);
      end if;
    else
      perform pg_notify('crewplan_changes', prefix);
    end if;
    return null;
  end $$`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('schedule_user_change')
    .addColumn('seq', 'integer', (col) =>
      isPostgres(db) ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey().autoIncrement(),
    )
    .$call(notNull('integer', 'organization_id', 'user_id'))
    .execute();
  if (isPostgres(db)) await sql.raw(notifyFunction(true)).execute(db);
  else await replaceSqliteTriggers(db, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql.raw(notifyFunction(false)).execute(db);
  else await replaceSqliteTriggers(db, false);
  await db.schema.dropTable('schedule_user_change').execute();
}
