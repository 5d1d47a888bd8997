import type { Kysely, Selectable, SelectQueryBuilder, Updateable } from 'kysely';
import type { Db } from './transaction.js';
import type { Database } from './types.js';

/** The tenant tables: those whose rows carry an `organization_id` and an `id`. */
type OrgTable = {
  [T in keyof Database]: Database[T] extends { organization_id: number; id: unknown } ? T : never;
}[keyof Database];

/** Kysely cannot check a column of a table named by a type parameter: these two build on an untyped handle. */
const untyped = (db: Db) => db as unknown as Kysely<Record<string, { organization_id: number; id: number }>>;

/** Every column of the organization's rows of `table`: where most repository reads start. */
export const orgRows = <T extends OrgTable>(db: Db, table: T, orgId: number) =>
  untyped(db)
    .selectFrom(table as string)
    .selectAll()
    .where('organization_id', '=', orgId) as unknown as SelectQueryBuilder<Database, T, Selectable<Database[T]>>;

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
