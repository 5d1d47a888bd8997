import { sql, type CompiledQuery, type Compilable, type Insertable } from 'kysely';
import { isPostgres } from './schema.js';
import type { Db } from './transaction.js';
import type { Database } from './types.js';

/** A bound value, or a list of them (`in (…)`); null only as a value bound at run time. */
type Scalar = string | number | null;
type Argument = Scalar | readonly Scalar[];

interface Template {
  compiled: CompiledQuery;
  /** For each bound parameter: [argument, element of a list argument or -1], or null to keep the compiled value. */
  sources: Array<readonly [number, number] | null>;
}

/** Lists of more elements are not compiled into a template of their own (each size is one). */
const LONGEST_KEPT_LIST = 64;

const placeholder = (index: number, element: number) => `\u0000crewplan argument ${index}.${element}\u0000`;

/**
 * A query of a fixed shape compiled once per engine (and per length of each list argument) and then
 * run with new arguments: building and compiling a Kysely query costs tens of microseconds, more
 * than running it on a hot path such as GET /users/{id} or POST /shifts. `build` must use every
 * argument as a bound value (in `where`, `values`, `limit`, a list in `in`) and nothing else: it
 * is called with placeholders in their place. Statements that write count as writes like any other
 * (src/core/db/index.ts counts executed statements).
 */
export function preparedQuery<A extends Argument[], R>(build: (db: Db, ...args: A) => Compilable<R>) {
  const templates = new Map<string, Template>();

  function templateFor(db: Db, args: A): Template {
    const shape = `${isPostgres(db) ? 'postgres' : 'sqlite'}:${args.map((a) => (Array.isArray(a) ? a.length : '')).join(',')}`;
    const kept = templates.get(shape);
    if (kept) return kept;
    const lookup = new Map<string, readonly [number, number]>();
    const bind = (index: number, element: number) => {
      lookup.set(placeholder(index, element), [index, element]);
      return placeholder(index, element);
    };
    const placeholders = args.map((arg, index) => (Array.isArray(arg) ? arg.map((_, element) => bind(index, element)) : bind(index, -1))) as unknown as A;
    const compiled = build(db, ...placeholders).compile();
    const sources = compiled.parameters.map((value) => (typeof value === 'string' ? (lookup.get(value) ?? null) : null));
    const template = { compiled, sources };
    if (args.every((a) => !Array.isArray(a) || a.length <= LONGEST_KEPT_LIST)) templates.set(shape, template);
    return template;
  }

  return async (db: Db, ...args: A): Promise<R[]> => {
    const { compiled, sources } = templateFor(db, args);
    const parameters = sources.map((source, index) => {
      if (!source) return compiled.parameters[index];
      const arg = args[source[0]];
      return source[1] < 0 ? arg : (arg as readonly Scalar[])[source[1]];
    });
    const result = await db.executeQuery<R>({ ...compiled, parameters });
    return result.rows;
  };
}

/**
 * An insert of one row with exactly these columns, compiled once (a hot path's write: every change
 * writes its system-log row and outbox event). Every column is given: none falls back to its default.
 * Returns the new row's id.
 */
export function preparedInsert<T extends keyof Database & string, C extends keyof Insertable<Database[T]> & string>(table: T, columns: readonly C[]) {
  const insert = preparedQuery((db: Db, ...values: Scalar[]) =>
    db
      .insertInto(table)
      .values(Object.fromEntries(columns.map((column, index) => [column, values[index]])) as Insertable<Database[T]>)
      .returning(sql<number>`id`.as('id')),
  );
  return async (db: Db, row: { [K in C]: Scalar }): Promise<number> => {
    const [inserted] = await insert(db, ...columns.map((column) => row[column]));
    return Number((inserted as { id: number }).id);
  };
}
