import { describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import { testDatabaseUrl, useOrgs } from '../../../test/helpers/server.js';

/**
 * SQLite statements are kept by their text (withStatementCache in src/core/db/index.ts): a kept
 * statement must read what better-sqlite3 reads and follow schema changes, whoever makes them.
 */
const { server, org } = await useOrgs();
const onPostgres = Boolean(testDatabaseUrl);

/** The same statement read by better-sqlite3's own row objects, on a connection of its own. */
function asBetterSqlite3Reads(text: string, parameters: unknown[]): unknown[] {
  const own = new SQLite(server.config.sqlitePath, { readonly: true });
  try {
    return own.prepare(text).all(parameters);
  } finally {
    own.close();
  }
}

describe.skipIf(onPostgres)('SQLite statements kept by their text', () => {
  it('reads rows as better-sqlite3 makes them: keys in order, a repeated name first placed, last valued', async () => {
    const ada = await org.createUser({ first_name: 'Ada', last_name: 'Lovelace' });
    await org.createUser({ first_name: 'Bo', last_name: 'Diddley' });
    const queries: Array<[string, unknown[]]> = [
      ['select * from user_account where organization_id = ? order by id', [org.orgId]],
      [
        'select u.id, u.first_name, o.id, o.name, u.id as user_id from user_account u ' +
          'join organization o on o.id = u.organization_id where u.organization_id = ?',
        [org.orgId],
      ],
      ["select id, null as absent, 1.5 as half, x'00ff' as bytes from user_account where id = ?", [ada]],
      ['select * from user_account where id = -1', []],
    ];
    for (const [text, parameters] of queries) {
      const expected = asBetterSqlite3Reads(text, parameters);
      const { rows } = await server.app.db.executeQuery(CompiledQuery.raw(text, parameters));
      expect(rows).toEqual(expected);
      expect(rows.map((row) => Object.keys(row as object))).toEqual(expected.map((row) => Object.keys(row as object)));
    }
  });

  it('follow a schema change made through the same connection and one made by another connection', async () => {
    const read = async () =>
      (await sql<Record<string, unknown>>`select * from statement_cache_probe order by id`.execute(server.app.db)).rows;
    await sql`create table statement_cache_probe (id integer primary key, a text)`.execute(server.app.db);
    await sql`insert into statement_cache_probe (id, a) values (1, 'one')`.execute(server.app.db);
    expect(await read()).toEqual([{ id: 1, a: 'one' }]);

    await sql`alter table statement_cache_probe rename column a to a2`.execute(server.app.db);
    expect(await read()).toEqual([{ id: 1, a2: 'one' }]);
    await sql`alter table statement_cache_probe rename column a2 to a`.execute(server.app.db);
    await sql`alter table statement_cache_probe add column b text default 'here'`.execute(server.app.db);
    expect(await read()).toEqual([{ id: 1, a: 'one', b: 'here' }]);

    const other = new SQLite(server.config.sqlitePath);
    try {
      other.exec(`alter table statement_cache_probe add column c integer default 3`);
    } finally {
      other.close();
    }
    expect(await read()).toEqual([{ id: 1, a: 'one', b: 'here', c: 3 }]);
  });
});
