import { createHash } from 'node:crypto';
import type { Compilable } from 'kysely';
import type { DatabaseHandle } from './index.js';

/**
 * Runs a select as a named prepared statement on PostgreSQL: each pool connection parses and plans
 * it once, then only binds new values (PostgreSQL keeps a generic plan when it costs no more than a
 * custom one). For statements whose planning costs more than running them (GET /schedule's day
 * items, decision 0026). The name is derived from the SQL text, so a different text never meets an
 * old name. SQLite runs it as Kysely does (its statements are kept prepared already). Counted, and
 * logged, like any statement run through Kysely.
 */
export async function selectPrepared<O>(handle: DatabaseHandle, query: Compilable<O>): Promise<O[]> {
  const compiled = query.compile();
  if (!handle.pool) return (await handle.db.executeQuery(compiled)).rows;
  const name = `crewplan_${createHash('sha256').update(compiled.sql).digest('hex').slice(0, 24)}`;
  handle.stats.queries += 1;
  for (const listener of handle.queryLog) listener(compiled.sql);
  const result = await handle.pool.query({ name, text: compiled.sql, values: [...compiled.parameters] });
  return result.rows as O[];
}
