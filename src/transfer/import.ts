import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { createCredential, type IssuedCredential } from '../core/auth/credentials.js';
import { reserveIds, tableColumns, type ColumnInfo } from './catalog.js';
import { withTransaction, type Db } from '../core/db/transaction.js';
import { rechainLog } from '../core/log-chain.js';
import { canonicalZone, isValidTimeZone } from '../core/time.js';
import { storeFile } from '../resources/user-memberships/file-store.js';
import { newWebhookSecret, storedWebhookSecret } from '../resources/webhooks/signature.js';
import { FORMAT, FORMAT_VERSION, type OrganizationDocument, type Row } from './export.js';
import { EXPORTED, type IdLookup } from './tables.js';
import { rowProblems } from './check-rows.js';
import { WebhookTargets } from '../resources/webhooks/targets.js';

const DocumentShape = Type.Object({
  format: Type.Literal(FORMAT),
  version: Type.Literal(FORMAT_VERSION),
  schema: Type.Union([Type.String(), Type.Null()]),
  organization: Type.Object({
    name: Type.String({ minLength: 1 }),
    timezone: Type.String(),
    created_at: Type.String(),
  }),
  tables: Type.Record(Type.String(), Type.Array(Type.Record(Type.String(), Type.Unknown()))),
  files: Type.Record(Type.String(), Type.String()),
});

export interface ImportOptions {
  /** Unused since certification files live in the database (migration 1451). */
  dataDir?: string;
  secretKey: Buffer;
  /** The new organization's name (default: the exported name). */
  name?: string;
  /**
   * Which webhook URLs the document may hold (the registration rule); by default only public
   * addresses. The CLI passes the server's (WEBHOOK_ALLOW_PRIVATE, WEBHOOK_ALLOWED_HOSTS).
   */
  webhookTargets?: WebhookTargets;
  /** Called after each batch of rows written. */
  onProgress?: (done: number, total: number) => void;
}

export interface ImportResult extends IssuedCredential {
  /** Rows written per table. */
  counts: Record<string, number>;
  /** Imported webhooks with their new secrets (never exported: shown here once). */
  webhooks: Array<{ id: number; url: string; secret: string }>;
  /** References to rows the document did not hold, written as null (or 0 where a value is required). */
  dangling: number;
}

/** Rows per INSERT: within both engines' limit on bound parameters. */
const MAX_PARAMETERS = 30_000;
const MAX_BATCH = 500;

/** Parses and checks an export document; every problem named. */
export function parseDocument(text: string): OrganizationDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`the organization export is not JSON: ${(error as Error).message}`);
  }
  if (!Value.Check(DocumentShape, value)) {
    const problems = [...Value.Errors(DocumentShape, value)].slice(0, 5).map((e) => `${e.path || '/'}: ${e.message}`);
    throw new Error(
      `not a crewplan organization export (format ${FORMAT} version ${FORMAT_VERSION}): ${problems.join('; ')}`,
    );
  }
  return value as OrganizationDocument;
}

/** Organization columns an import never takes from the document. */
const OWN_ORGANIZATION_COLUMNS = new Set(['id', 'revision']);

function checkAgainstSchema(document: OrganizationDocument, columns: Map<string, ColumnInfo[]>): void {
  const problems: string[] = [];
  const organizationColumns = new Set((columns.get('organization') ?? []).map((c) => c.name));
  const unknownSettings = Object.keys(document.organization).filter(
    (key) => !organizationColumns.has(key) || OWN_ORGANIZATION_COLUMNS.has(key),
  );
  if (unknownSettings.length > 0)
    problems.push(`organization has columns this database does not: ${unknownSettings.join(', ')}`);
  if (!isValidTimeZone(canonicalZone(document.organization.timezone)))
    problems.push(`unknown time zone ${document.organization.timezone}`);
  for (const [table, rows] of Object.entries(document.tables)) {
    const known = columns.get(table);
    if (!(table in EXPORTED) || !known) {
      problems.push(`table ${table} is not part of this database's organization data`);
      continue;
    }
    const names = new Set(known.map((c) => c.name));
    const unknown = new Set<string>();
    for (const row of rows) {
      if (!Number.isInteger(row.id)) problems.push(`a ${table} row has no integer id`);
      for (const key of Object.keys(row)) if (!names.has(key) || key === 'organization_id') unknown.add(key);
    }
    if (unknown.size > 0) problems.push(`${table} has columns this database does not: ${[...unknown].join(', ')}`);
  }
  if (problems.length > 0) {
    const schema = document.schema
      ? ` (exported at schema ${document.schema}: upgrade this crewplan first if it is older)`
      : '';
    throw new Error(`the export does not fit this database${schema}: ${problems.slice(0, 10).join('; ')}`);
  }
}

/**
 * Writes an export as a new organization with a new API credential, in one transaction: every row
 * gets a new id, and every reference (tables.ts) the new id of the row it named. Certification
 * files are stored in the database in that same transaction.
 */
export async function importOrganization(
  db: Db,
  document: OrganizationDocument,
  options: ImportOptions,
): Promise<ImportResult> {
  const columns = await tableColumns(db);
  checkAgainstSchema(document, columns);
  const targets = options.webhookTargets ?? new WebhookTargets({ webhookAllowPrivate: false, webhookAllowedHosts: [] });
  const problems = await rowProblems(document, columns, targets);
  if (problems.length > 0)
    throw new Error(`the export holds values this database does not take:\n${problems.join('\n')}`);
  return withTransaction(db, (trx) => writeOrganization(trx, document, columns, options));
}

async function writeOrganization(
  trx: Db,
  document: OrganizationDocument,
  columns: Map<string, ColumnInfo[]>,
  options: ImportOptions,
): Promise<ImportResult> {
  const { organization } = document;
  const { id: orgId } = await trx
    .insertInto('organization')
    // the zone in its IANA spelling, whatever case the document holds
    .values({
      ...organization,
      name: options.name ?? organization.name,
      timezone: canonicalZone(organization.timezone),
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  // the certification files, under new names, in the same transaction as the rows that name them
  const storedNames = new Map<string, string>();
  for (const [name, data] of Object.entries(document.files))
    storedNames.set(name, await storeFile(trx, orgId, Buffer.from(data, 'base64')));

  const tables = Object.keys(document.tables).sort();
  const newIds = new Map<string, Map<number, number>>();
  for (const table of tables) {
    const rows = [...document.tables[table]].sort((a, b) => (a.id as number) - (b.id as number));
    document.tables[table] = rows;
    const ids = await reserveIds(trx, table, rows.length);
    newIds.set(table, new Map(rows.map((row, i) => [row.id as number, ids[i]])));
  }
  const lookup: IdLookup = (table, oldId) => newIds.get(table)?.get(oldId);

  let dangling = 0;
  const webhooks: ImportResult['webhooks'] = [];
  const counts: Record<string, number> = {};
  const total = tables.reduce((sum, table) => sum + document.tables[table].length, 0);
  let done = 0;
  for (const table of tables) {
    const policy = EXPORTED[table];
    const nullable = new Map(columns.get(table)!.map((c) => [c.name, c.nullable]));
    const rows = document.tables[table].map((source) => {
      const row: Row = { ...source, id: lookup(table, source.id as number), organization_id: orgId };
      for (const [column, target] of Object.entries(policy.refs ?? {})) {
        const old = source[column];
        if (old === null || old === undefined || old === 0) continue;
        const mapped = typeof old === 'number' ? lookup(target, old) : undefined;
        if (mapped === undefined) dangling += 1;
        row[column] = mapped ?? (nullable.get(column) ? null : 0);
      }
      for (const [column, remap] of Object.entries(policy.remap ?? {}))
        if (column in source) row[column] = remap(source[column], source, lookup);
      Object.assign(row, policy.reset ?? {});
      if (table === 'webhook_endpoint') {
        const secret = newWebhookSecret();
        Object.assign(row, storedWebhookSecret(options.secretKey, secret));
        webhooks.push({ id: row.id as number, url: String(row.url), secret });
      }
      if (table === 'user_certification' && typeof source.file_storage_name === 'string') {
        row.file_storage_name = storedNames.get(source.file_storage_name) ?? null;
      }
      return row;
    });
    const width = Math.max(1, Object.keys(rows[0] ?? {}).length);
    const batch = Math.max(1, Math.min(MAX_BATCH, Math.floor(MAX_PARAMETERS / width)));
    for (let i = 0; i < rows.length; i += batch) {
      await trx
        .insertInto(table as 'organization')
        .values(rows.slice(i, i + batch) as never)
        .execute();
      done += Math.min(batch, rows.length - i);
      options.onProgress?.(done, total);
    }
    counts[table] = rows.length;
  }
  // the log's entries name new ids: its hash chain is made anew over them, in the source's order
  await rechainLog(trx, orgId);
  const credential = await createCredential(trx, options.secretKey, orgId, 'created by organization import');
  return { ...credential, counts, webhooks, dangling };
}
