import { readStoredFile } from '../resources/user-memberships/file-store.js';
import { latestMigration, tableColumns, type ColumnInfo } from './catalog.js';
import { isPostgres } from '../core/db/schema.js';
import type { Db } from '../core/db/transaction.js';
import { nowUtc } from '../core/time.js';
import { EXPORTED, NOT_EXPORTED } from './tables.js';

/** The export format (docs/operations.md, "Organization export format"). */
export const FORMAT = 'crewplan-organization';
export const FORMAT_VERSION = 1;

export type Row = Record<string, unknown>;

export interface OrganizationDocument {
  format: typeof FORMAT;
  version: number;
  exported_at: string;
  /** The newest migration of the exporting database: an import needs a database at least that new. */
  schema: string | null;
  /** The organization's own row (name, time zone, settings such as the work period) without id and revision. */
  organization: { name: string; timezone: string; created_at: string } & Record<string, unknown>;
  /** table → its rows of the organization, by id, with every column but `organization_id` and the reset ones */
  tables: Record<string, Row[]>;
  /** Uploaded certification files, base64, by the `file_storage_name` of their user_certification row */
  files: Record<string, string>;
}

export interface ExportResult {
  document: OrganizationDocument;
  /** What could not be carried (a certification file missing from the data directory). */
  warnings: string[];
}

/**
 * The tenant tables of the database and what the export does with each; throws when a table with
 * `organization_id` is in neither list (a new table must be classified in src/transfer/tables.ts).
 */
export function exportedTables(columns: Map<string, ColumnInfo[]>): string[] {
  const tenant = [...columns]
    .filter(([, cols]) => cols.some((c) => c.name === 'organization_id'))
    .map(([name]) => name);
  const unknown = tenant.filter((name) => !(name in EXPORTED) && !(name in NOT_EXPORTED));
  if (unknown.length > 0)
    throw new Error(`tables not covered by the organization export (src/transfer/tables.ts): ${unknown.join(', ')}`);
  return tenant.filter((name) => name in EXPORTED).sort();
}

/** Everything the organization owns, as one document, read in one snapshot (a consistent copy of a running server). */
/** `_dataDir`: unused since certification files live in the database (migration 1451). */
export async function exportOrganization(db: Db, orgId: number, _dataDir?: string): Promise<ExportResult> {
  // read only: on SQLite a deferred transaction, a snapshot that keeps no writer waiting
  const transaction = isPostgres(db)
    ? db.transaction().setIsolationLevel('repeatable read')
    : db.transaction().setAccessMode('read only');
  return transaction.execute(async (trx) => {
    const row = await trx.selectFrom('organization').selectAll().where('id', '=', orgId).executeTakeFirst();
    if (!row) throw new Error(`organization ${orgId} does not exist`);
    const { id: _id, revision: _revision, ...organization } = row;
    const columns = await tableColumns(trx);
    const tables: Record<string, Row[]> = {};
    for (const table of exportedTables(columns)) {
      const reset = EXPORTED[table].reset ?? {};
      const rows = await (trx as Db)
        .selectFrom(table as 'organization')
        .selectAll()
        .where('organization_id' as 'id', '=', orgId)
        .orderBy('id')
        .execute();
      tables[table] = rows.map((row: Row) => {
        const copy: Row = {};
        for (const [key, value] of Object.entries(row))
          if (key !== 'organization_id' && !(key in reset)) copy[key] = value;
        return copy;
      });
    }
    const warnings: string[] = [];
    const files: Record<string, string> = {};
    for (const row of tables.user_certification ?? []) {
      const name = row.file_storage_name;
      if (typeof name !== 'string') continue;
      const data = await readStoredFile(trx, orgId, name);
      if (data) files[name] = data.toString('base64');
      else {
        warnings.push(
          `certification file ${name} (user_certification ${String(row.id)}) is missing from the database: ` +
            'exported without its file',
        );
        row.file_storage_name = null;
        row.file_content_type = null;
        row.file_size = null;
        row.file_uploaded_at = null;
      }
    }
    const document: OrganizationDocument = {
      format: FORMAT,
      version: FORMAT_VERSION,
      exported_at: nowUtc(),
      schema: await latestMigration(trx),
      organization,
      tables,
      files,
    };
    return { document, warnings };
  });
}
