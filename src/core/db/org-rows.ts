import type {
  DeleteQueryBuilder,
  DeleteResult,
  JoinBuilder,
  Kysely,
  Selectable,
  SelectQueryBuilder,
  Updateable,
} from 'kysely';
import { invalidParams } from '../errors.js';
import type { Db } from './transaction.js';
import type { Database } from './types.js';

/** The tenant tables: those whose rows carry an `organization_id` and an `id`. */
type OrgTable = {
  [T in keyof Database]: Database[T] extends { organization_id: number; id: unknown } ? T : never;
}[keyof Database];

/** The tables whose rows carry an `organization_id`. */
type TenantTable = {
  [T in keyof Database]: Database[T] extends { organization_id: number } ? T : never;
}[keyof Database];

/** Kysely cannot check a column of a table named by a type parameter: these build on an untyped handle. */
const untyped = (db: Db) => db as unknown as Kysely<Record<string, { organization_id: number; id: number }>>;

/** Every column of the organization's rows of `table`: where most repository reads start. */
export const orgRows = <T extends TenantTable>(db: Db, table: T, orgId: number) =>
  untyped(db)
    .selectFrom(table as string)
    .selectAll()
    .where('organization_id', '=', orgId) as unknown as SelectQueryBuilder<Database, T, Selectable<Database[T]>>;

/** The `columns` of the organization's rows of `table`. */
export const orgColumns = <T extends TenantTable, C extends keyof Selectable<Database[T]> & string>(
  db: Db,
  table: T,
  orgId: number,
  columns: readonly C[],
) =>
  untyped(db)
    .selectFrom(table as string)
    .select(columns as unknown as 'id'[])
    .where('organization_id', '=', orgId) as unknown as SelectQueryBuilder<
    Database,
    T,
    Pick<Selectable<Database[T]>, C>
  >;

/** Deletes the organization's rows of `table` that the `where`s added to it name. */
export const deleteOrgRows = <T extends TenantTable>(db: Db, table: T, orgId: number) =>
  untyped(db)
    .deleteFrom(table as string)
    .where('organization_id', '=', orgId) as unknown as DeleteQueryBuilder<Database, T, DeleteResult>;

/**
 * The ids among `ids` that name rows of `table` of the organization; with `live`, rows not deleted
 * (`deleted_at` null). One query; none when no id is asked.
 */
async function orgIdsAmong(
  db: Db,
  table: OrgTable,
  orgId: number,
  ids: Iterable<number>,
  live = false,
): Promise<Set<number>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Set();
  let query = untyped(db).selectFrom(table).select('id').where('organization_id', '=', orgId).where('id', 'in', unique);
  if (live) query = query.where('deleted_at' as 'id', 'is', null);
  return new Set((await query.execute()).map((row) => row.id));
}

/** 422 `The selected <field> is invalid.` unless every id names a row of `table` of the organization (orgIdsAmong). */
export async function assertOrgIds(
  db: Db,
  table: OrgTable,
  orgId: number,
  ids: Iterable<number>,
  field: string,
  live = false,
): Promise<void> {
  const wanted = [...ids];
  const found = await orgIdsAmong(db, table, orgId, wanted, live);
  if (wanted.some((id) => !found.has(id))) throw invalidParams(`The selected ${field} is invalid.`);
}

/** The highest `position` among the organization's live rows of `table`; null when it has none. */
export async function lastLivePosition(db: Db, table: OrgTable, orgId: number): Promise<number | null> {
  const row = await untyped(db)
    .selectFrom(table)
    .select((eb) => eb.fn.max('position' as 'id').as('last'))
    .where('organization_id', '=', orgId)
    .where('deleted_at' as 'id', 'is', null)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? null : Number(row.last);
}

/** Sets `values` on the row `id` of `table`, when it is the organization's. */
export async function updateOrgRow<T extends OrgTable>(
  db: Db,
  table: T,
  orgId: number,
  id: number,
  values: Updateable<Database[T]>,
): Promise<void> {
  await untyped(db)
    .updateTable(table as string)
    .set(values)
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

/** The table part of a column reference: `u` of `u.id`. */
const tableOf = (ref: string) => ref.slice(0, ref.indexOf('.'));

/**
 * The join condition of two tenant tables: `left` is `right` and both rows are of one organization.
 * `.innerJoin('qualifier', sameOrg('qualifier.id', 'shift_qualifier.qualifier_id'))`
 */
export const sameOrg =
  (left: string, right: string) =>
  // biome-ignore lint/suspicious/noExplicitAny: the columns are named by strings, as in Kysely's own onRef
  <J extends JoinBuilder<any, any>>(join: J) =>
    join.onRef(left, '=', right).onRef(`${tableOf(left)}.organization_id`, '=', `${tableOf(right)}.organization_id`);

/**
 * The rows `read` finds for the distinct `ids`, by id; none asked, no query. With `missing`, throws what it
 * makes when one of the ids has no row.
 */
export async function rowsById<R extends { id: number }>(
  ids: Iterable<number>,
  read: (unique: number[]) => Promise<R[]>,
  missing?: () => Error,
): Promise<Map<number, R>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await read(unique);
  if (missing && rows.length !== unique.length) throw missing();
  return new Map(rows.map((row) => [row.id, row]));
}
