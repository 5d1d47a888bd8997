import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../core/db/schema.js';

/** What the database itself says about a table's columns, per engine (organization export/import). */
export interface ColumnInfo {
  name: string;
  /** The declared type, lower case: `integer`, `text`, `double precision`, `bigint`, … */
  type: string;
  nullable: boolean;
}

/**
 * Every table of the connection's schema with its columns in declaration order: SQLite's
 * `pragma_table_info`, PostgreSQL's `information_schema` for the current schema only (Kysely's
 * introspector reads every schema of the database; see core/db/migrator.ts).
 */
export async function tableColumns(db: Kysely<any>): Promise<Map<string, ColumnInfo[]>> {
  const { rows } = isPostgres(db)
    ? await sql<{ table_name: string; name: string; type: string; nullable: boolean }>`
        select table_name, column_name as name, data_type as type, is_nullable = 'YES' as nullable
        from information_schema.columns where table_schema = current_schema()
        order by table_name, ordinal_position`.execute(db)
    : await sql<{ table_name: string; name: string; type: string; nullable: number }>`
        select m.name as table_name, p.name as name, lower(p.type) as type, p."notnull" = 0 and p.pk = 0 as nullable
        from sqlite_master m join pragma_table_info(m.name) p
        where m.type = 'table' and m.name not like 'sqlite_%'
        order by m.name, p.cid`.execute(db);
  const tables = new Map<string, ColumnInfo[]>();
  for (const row of rows) {
    const columns = tables.get(row.table_name) ?? [];
    columns.push({ name: row.name, type: row.type.toLowerCase(), nullable: !!row.nullable });
    tables.set(row.table_name, columns);
  }
  return tables;
}

/**
 * Reserves `count` new ids of a table's identity column, ascending, for rows the caller then
 * inserts with explicit ids (so that rows referring to each other can be written in one pass).
 * PostgreSQL draws them from the column's sequence; SQLite counts on from the largest id the
 * table (or its AUTOINCREMENT counter) has seen, inside the caller's write transaction, and
 * inserting the explicit ids moves that counter on.
 */
export async function reserveIds(trx: Kysely<any>, table: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  if (isPostgres(trx)) {
    const { rows } = await sql<{ id: number }>`
      select nextval(pg_get_serial_sequence(${table}, 'id'))::integer as id from generate_series(1, ${count})`.execute(
      trx,
    );
    return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  }
  const { rows } = await sql<{ top: number | null }>`
    select max(coalesce((select max(id) from ${sql.table(table)}), 0),
               coalesce((select seq from sqlite_sequence where name = ${table}), 0)) as top`.execute(trx);
  const top = Number(rows[0]?.top ?? 0);
  return Array.from({ length: count }, (_, i) => top + 1 + i);
}

/** The name of the newest migration applied (`NNNN-description`), or null on an empty database. */
export async function latestMigration(db: Kysely<any>): Promise<string | null> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(
    db,
  );
  return rows[0]?.name ?? null;
}
