import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type CompiledQuery,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { compiledOnce } from './compiled-once.js';
import type { Db } from './transaction.js';
import type { Database } from './types.js';

/**
 * compiledOnce (docs/decisions/0030-queries-compiled-once.md) builds a query once with stand-ins
 * for its arguments: each call must read and write what the same query built anew would, and a
 * query that uses an argument as anything but a bound value must be refused, not run wrong.
 */
let server: TestServer;
let org: TestOrg;
let db: Db;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  db = server.app.db;
});
afterAll(() => server.close());

const usersQuery = (d: Db, orgId: number, ids: number[], deletedAt: string | null) =>
  d
    .selectFrom('user_account')
    .select(['id', 'first_name'])
    .where('organization_id', '=', orgId)
    .where('id', 'in', ids)
    .where((eb) => eb.or([eb('deleted_at', 'is', null), eb('deleted_at', '=', deletedAt)]))
    .orderBy('id');
const usersOnce = compiledOnce(usersQuery);

describe('compiledOnce', () => {
  it('reads what the query built anew reads, for each call its own arguments, lists of any length', async () => {
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push(await org.createUser({ first_name: `Once${i}`, last_name: 'Test' }));
    const cases: Array<[number[], string | null]> = [
      [[ids[0]!], null],
      [[ids[1]!], null],
      [[ids[2]!, ids[3]!], '2026-01-01 00:00:00'],
      [[ids[4]!, ids[5]!], null],
      [ids, null], // longer than the lists kept: compiled on the call
      [[ids[6]!, 0], null],
      [[ids[7]!], null],
    ];
    for (const [list, deletedAt] of cases) {
      const expected = await usersQuery(db, org.orgId, list, deletedAt).execute();
      expect(await usersOnce(db, org.orgId, list, deletedAt)).toEqual(expected);
      expect(expected.length).toBe(list.filter((id) => id !== 0).length);
    }
    // another organization's id binds as a value like any other
    expect(await usersOnce(db, org.orgId + 1_000_000, [ids[0]!], null)).toEqual([]);
  });

  it('writes a row of the columns given (a column given as undefined is left out, as in Kysely)', async () => {
    const insert = compiledOnce((d: Db, row: Record<string, string | number | null | undefined>) =>
      d
        .insertInto('label')
        .values(row as never)
        .returning('id'),
    );
    const base = {
      organization_id: org.orgId,
      color: '#000000',
      text_color: '#ffffff',
      created_at: '2026-01-01 00:00:00',
    };
    const [first] = (await insert(db, { ...base, label: 'once-a', position: 3 })) as Array<{ id: number }>;
    const [second] = (await insert(db, { ...base, label: 'once-b', position: undefined })) as Array<{ id: number }>;
    const rows = await db
      .selectFrom('label')
      .select(['id', 'label', 'position'])
      .where('id', 'in', [first!.id, second!.id])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: first!.id, label: 'once-a', position: 3 },
      { id: second!.id, label: 'once-b', position: 0 },
    ]);
  });

  it('counts its statements like any other', async () => {
    const before = server.queryCount();
    await usersOnce(db, org.orgId, [1], null);
    const bump = compiledOnce((d: Db, orgId: number) =>
      d.updateTable('label').set({ position: 9 }).where('organization_id', '=', orgId).where('label', '=', 'none'),
    );
    await bump(db, org.orgId);
    expect(server.queryCount() - before).toBe(2);
  });

  it('refuses an argument used as text or in a condition while building, before anything runs', async () => {
    const asText = compiledOnce((d: Db, column: string) =>
      d.selectFrom('user_account').select(sql.raw<string>(`${column}`).as('x')),
    );
    await expect(asText(db, 'first_name')).rejects.toThrow(/argument 0 was used as text/);
    const compared = compiledOnce((d: Db, orgId: number, from: string) =>
      d
        .selectFrom('shift')
        .select('id')
        .where('organization_id', '=', orgId)
        .where('start', from > '2026' ? '>' : '<', from),
    );
    await expect(compared(db, org.orgId, '2027-01-01')).rejects.toThrow(/argument 1 was used as text/);
    // a condition on an argument would be decided once for every later call: refused
    const decidedBy = compiledOnce((d: Db, orgId: number, userId: number | null) =>
      d
        .selectFrom('shift')
        .select('id')
        .where('organization_id', '=', orgId)
        .$if(userId === null, (qb) => qb.where('user_id', 'is', null)),
    );
    await expect(decidedBy(db, org.orgId, 5)).rejects.toThrow(/argument 1 is not \(wholly\) a bound value/);
  });

  it('compiles once per engine: the same query on PostgreSQL gets its own text and placeholders', async () => {
    const compiled: CompiledQuery[] = [];
    const postgres = new Kysely<Database>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (k) => new PostgresIntrospector(k),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
      log: (event) => {
        compiled.push(event.query);
      },
    });
    const byId = compiledOnce((d: Db, orgId: number, ids: number[]) =>
      d.selectFrom('shift').select('id').where('organization_id', '=', orgId).where('id', 'in', ids),
    );
    await byId(db, org.orgId, [1, 2]);
    await byId(postgres, 7, [8, 9]);
    await byId(postgres, 10, [11, 12]);
    expect(compiled.map((q) => [q.sql, q.parameters])).toEqual([
      ['select "id" from "shift" where "organization_id" = $1 and "id" in ($2, $3)', [7, 8, 9]],
      ['select "id" from "shift" where "organization_id" = $1 and "id" in ($2, $3)', [10, 11, 12]],
    ]);
  });
});
