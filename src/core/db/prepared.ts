import { CompiledQuery, type Compilable } from 'kysely';
import { isPostgres } from './schema.js';
import type { Db } from './transaction.js';

type Argument = string | number;

interface Template {
  compiled: CompiledQuery;
  /** For each bound parameter: the index of the argument it takes, or -1 to keep the compiled value. */
  sources: number[];
}

const placeholder = (index: number) => `\u0000crewplan argument ${index}\u0000`;

/**
 * A query of a fixed shape compiled once per engine and then run with new arguments: building and
 * compiling a Kysely query costs tens of microseconds, more than running it on a hot path such as
 * GET /users/{id}. `build` must use every argument as a bound value (in `where`, `limit`, …) and
 * nothing else: it is called once with placeholders in their place.
 */
export function preparedQuery<A extends Argument[], R>(build: (db: Db, ...args: A) => Compilable<R>) {
  const templates = new Map<'sqlite' | 'postgres', Template>();

  function templateFor(db: Db, arity: number): Template {
    const engine = isPostgres(db) ? 'postgres' : 'sqlite';
    let template = templates.get(engine);
    if (!template) {
      const placeholders = Array.from({ length: arity }, (_, index) => placeholder(index)) as A;
      const compiled = build(db, ...placeholders).compile();
      const sources = compiled.parameters.map((value) => (typeof value === 'string' ? placeholders.indexOf(value) : -1));
      template = { compiled, sources };
      templates.set(engine, template);
    }
    return template;
  }

  return async (db: Db, ...args: A): Promise<R[]> => {
    const { compiled, sources } = templateFor(db, args.length);
    const parameters = sources.map((source, index) => (source >= 0 ? args[source] : compiled.parameters[index]));
    const result = await db.executeQuery<R>({ ...compiled, parameters });
    return result.rows;
  };
}
