import type { CreateTableBuilder } from 'kysely';

// Column sets for migrations (used with `$call`): a run of columns of one type and nullability, added in order,
// so the SQL is what one `addColumn` a column writes.

type AnyTable = CreateTableBuilder<string, string>;
type DataTypeExpression = Parameters<AnyTable['addColumn']>[1];

/** Adds not-null columns of one type, in order: `.$call(notNull('text', 'name', 'color'))`. */
export function notNull(type: DataTypeExpression, ...names: string[]) {
  return (table: AnyTable): AnyTable => names.reduce((t, name) => t.addColumn(name, type, (c) => c.notNull()), table);
}

/** Adds nullable columns of one type, in order: `.$call(nullable('text', 'notes', 'reason'))`. */
export function nullable(type: DataTypeExpression, ...names: string[]) {
  return (table: AnyTable): AnyTable => names.reduce((t, name) => t.addColumn(name, type), table);
}

/** Adds not-null columns of one type with one default, in order: `.$call(notNullDefault('integer', 0, 'a', 'b'))`. */
export function notNullDefault(type: DataTypeExpression, value: string | number, ...names: string[]) {
  return (table: AnyTable): AnyTable =>
    names.reduce((t, name) => t.addColumn(name, type, (c) => c.notNull().defaultTo(value)), table);
}
