import { createHash } from 'node:crypto';
import type { Compilable, CompiledQuery } from 'kysely';
import type { DatabaseHandle } from './index.js';

/** Statement names by SQL text (a few texts: the hash is computed once for each). */
const names = new Map<string, string>();

function nameOf(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    if (names.size >= 100) names.clear();
    name = `crewplan_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
    names.set(sql, name);
  }
  return name;
}

/**
 * Runs a select as a named prepared statement on PostgreSQL: each pool connection parses and plans
 * it once, then only binds new values (PostgreSQL keeps a generic plan when it costs no more than a
 * custom one). For statements whose planning costs more than running them (GET /schedule's day
 * items, decision 0026). The name is derived from the SQL text, so a different text never meets an
 * old name. SQLite runs it as Kysely does (its statements are kept prepared already). Counted, and
 * logged, like any statement run through Kysely.
 */
export async function selectPrepared<O>(handle: DatabaseHandle, query: Compilable<O> | CompiledQuery<O>): Promise<O[]> {
  const compiled = 'compile' in query ? query.compile() : query;
  if (!handle.pool) return (await handle.db.executeQuery(compiled)).rows;
  const name = nameOf(compiled.sql);
  handle.stats.queries += 1;
  for (const listener of handle.queryLog) listener(compiled.sql);
  const result = await handle.pool.query({ name, text: compiled.sql, values: [...compiled.parameters] });
  return result.rows as O[];
}
