import type { Compilable, CompiledQuery } from 'kysely';
import { isPostgres } from './schema.js';
import type { Db } from './transaction.js';

/** A bound value, a list of them (`in (…)`), or a row of them by column (`values`, `set`). */
type Value = string | number | null;
type Argument = Value | readonly Value[] | Readonly<Record<string, Value | undefined>>;

/**
 * Stands in for one argument (or one element of a list argument) while the query is built. Kysely
 * passes a value it binds to the compiled parameters untouched; any other use fails: turned into
 * text or compared, it throws, and an argument that never reaches the parameters (a JavaScript
 * condition on it) is refused once the query is compiled.
 */
class Slot {
  constructor(
    readonly argument: number,
    /** the element of a list or the column of a row, null for the argument itself */
    readonly element: number | string | null,
  ) {}
  [Symbol.toPrimitive](): never {
    throw new Error(
      `compiledOnce: argument ${this.argument} was used as text or in a comparison, not as a bound value`,
    );
  }
}

const isRow = (arg: Argument): arg is Readonly<Record<string, Value | undefined>> =>
  arg !== null && typeof arg === 'object' && !Array.isArray(arg);

/** The columns a row gives: as in Kysely, a column whose value is undefined is left out. */
const columnsOf = (row: Readonly<Record<string, Value | undefined>>) =>
  Object.keys(row).filter((column) => row[column] !== undefined);

interface Template {
  compiled: CompiledQuery;
  /** for each compiled parameter, the slot it stands for, or null to keep the compiled value */
  slots: Array<Slot | null>;
}

/** A list argument longer than this is compiled on each call (each length is a template of its own). */
const LONGEST_KEPT_LIST = 16;

/**
 * A query of a fixed shape built and compiled by Kysely once per engine (and per length of each
 * list argument), then run with new arguments as Kysely's own `CompiledQuery`
 * (docs/decisions/0030-queries-compiled-once.md). Building and compiling costs more CPU than running
 * the statement on SQLite. `build` must use each argument only as a bound value (in `where`, a
 * list in `in`, a row in `values` or `set`): it runs once, with stand-ins in the arguments' place,
 * so it must not decide anything on an argument (`$if(arg !== null, …)` would be decided once).
 * Runs through `db.executeQuery`, so statements are counted and logged like any other.
 */
export function compiledOnce<A extends Argument[], R>(build: (db: Db, ...args: A) => Compilable<R>) {
  const compile = compiledOnceQuery(build);
  return async (db: Db, ...args: A): Promise<R[]> => (await db.executeQuery<R>(compile(db, ...args))).rows;
}

/**
 * As {@link compiledOnce}, but answers the compiled query with the call's arguments bound, for the
 * caller to run (GET /schedule's day items run it as a named statement: core/db/prepared.ts).
 */
export function compiledOnceQuery<A extends Argument[], R>(build: (db: Db, ...args: A) => Compilable<R>) {
  const templates = new Map<string, Template>();

  function templateFor(db: Db, args: A): Template {
    let shape = isPostgres(db) ? 'postgres' : 'sqlite';
    for (const arg of args) {
      if (Array.isArray(arg)) shape += `|${arg.length}`;
      else if (isRow(arg)) shape += `|${columnsOf(arg).join(',')}`;
      else shape += '|';
    }
    const kept = templates.get(shape);
    if (kept) return kept;
    const standIns = args.map((arg, index) => {
      if (Array.isArray(arg)) return arg.map((_, element) => new Slot(index, element));
      if (isRow(arg)) return Object.fromEntries(columnsOf(arg).map((column) => [column, new Slot(index, column)]));
      return new Slot(index, null);
    });
    const compiled = build(db, ...(standIns as unknown as A)).compile();
    const slots = compiled.parameters.map((value) => (value instanceof Slot ? value : null));
    const bound = new Set(slots);
    standIns.forEach((standIn, index) => {
      const all = standIn instanceof Slot ? [standIn] : Object.values(standIn);
      if (!all.every((slot) => bound.has(slot)))
        throw new Error(`compiledOnce: argument ${index} is not (wholly) a bound value of the query`);
    });
    const template = { compiled, slots };
    if (args.every((arg) => !Array.isArray(arg) || arg.length <= LONGEST_KEPT_LIST)) templates.set(shape, template);
    return template;
  }

  return (db: Db, ...args: A): CompiledQuery<R> => {
    const { compiled, slots } = templateFor(db, args);
    const parameters = slots.map((slot, index) => {
      if (!slot) return compiled.parameters[index];
      const arg = args[slot.argument] as Argument;
      return slot.element === null ? arg : (arg as Record<string | number, Value>)[slot.element];
    });
    return { ...compiled, parameters } as CompiledQuery<R>;
  };
}
