import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../schema.js';

/**
 * PostgreSQL only: changes that end a token's validity (a credential revoked or deleted, tokens
 * deleted) and changes of an organization (its revision, raised after every change request; its
 * name or time zone) are announced on the channel `crewplan_changes`, so that server processes may
 * keep bearer lookups in memory and drop them the moment anything they rest on changes
 * (src/core/auth/token-cache.ts). The payload starts with the schema: databases shared by several
 * schemas (test runs) keep their announcements apart.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create function crewplan_notify_auth() returns trigger language plpgsql as $$
    begin
      perform pg_notify('crewplan_changes', tg_table_schema || ' auth');
      return null;
    end $$`.execute(db);
  await sql`
    create function crewplan_notify_organization() returns trigger language plpgsql as $$
    begin
      perform pg_notify('crewplan_changes', tg_table_schema || ' organization ' || old.id);
      return null;
    end $$`.execute(db);
  await sql`create trigger api_credential_changed after update or delete or truncate on api_credential
    for each statement execute function crewplan_notify_auth()`.execute(db);
  await sql`create trigger access_token_deleted after delete or truncate on access_token
    for each statement execute function crewplan_notify_auth()`.execute(db);
  await sql`create trigger organization_changed after update or delete on organization
    for each row execute function crewplan_notify_organization()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger organization_changed on organization`.execute(db);
  await sql`drop trigger access_token_deleted on access_token`.execute(db);
  await sql`drop trigger api_credential_changed on api_credential`.execute(db);
  await sql`drop function crewplan_notify_organization()`.execute(db);
  await sql`drop function crewplan_notify_auth()`.execute(db);
}
