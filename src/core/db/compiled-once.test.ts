import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type CompiledQuery,
  type Compilable,
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

/** A Kysely of each engine's compiler that runs nothing and notes every statement it is given. */
function recordingDb(engine: 'sqlite' | 'postgres') {
  const ran: Array<[string, readonly unknown[]]> = [];
  const postgres = engine === 'postgres';
  const recording = new Kysely<Database>({
    dialect: {
      createAdapter: () => (postgres ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => (postgres ? new PostgresIntrospector(k) : new SqliteIntrospector(k)),
      createQueryCompiler: () => (postgres ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
    log: (event) => {
      ran.push([event.query.sql, event.query.parameters]);
    },
  });
  return { db: recording, ran };
}

type Row = Record<string, string | number | null | undefined>;

/** Queries of each kind compiledOnce is used for, each with calls of several shapes and values. */
// biome-ignore lint/suspicious/noExplicitAny: each query takes arguments of its own
const corpus: Array<{ name: string; build: (d: Db, ...args: any[]) => Compilable<unknown>; calls: unknown[][] }> = [
  {
    name: 'a select with a list, a null and an or',
    build: usersQuery,
    calls: [
      [1, [2], null],
      [3, [4, 5], '2026-01-01 00:00:00'],
      [6, [7, 8], null],
      [9, Array.from({ length: 17 }, (_, i) => i), null],
      [10, [11], 'x'],
    ],
  },
  {
    name: 'a join with a range and a limit',
    build: (d: Db, orgId: number, userId: number, from: string, until: string) =>
      d
        .selectFrom('shift')
        .innerJoin('work_type', 'work_type.id', 'shift.work_type_id')
        .select(['shift.id', 'shift.start', 'work_type.label'])
        .where('shift.organization_id', '=', orgId)
        .where('shift.user_id', '=', userId)
        .where('shift.end', '>', from)
        .where('shift.start', '<', until)
        .orderBy('shift.start')
        .limit(50),
    calls: [
      [1, 2, '2026-01-01', '2026-01-02'],
      [3, 4, '2027-05-01 07:00:00', '2027-05-02 07:00:00'],
    ],
  },
  {
    name: 'an insert of a row, columns left out',
    build: (d: Db, row: Row) =>
      d
        .insertInto('label')
        .values(row as never)
        .returning('id'),
    calls: [
      [{ organization_id: 1, label: 'a', color: '#000000', text_color: '#ffffff', position: 3 }],
      [{ organization_id: 2, label: 'b', color: '#111111', text_color: null, position: undefined }],
      [{ organization_id: 3, label: 'c', color: '#222222', text_color: '#333333', position: 4 }],
    ],
  },
  {
    name: 'an update of a row by id',
    build: (d: Db, orgId: number, id: number, set: Row) =>
      d
        .updateTable('label')
        .set(set as never)
        .where('organization_id', '=', orgId)
        .where('id', '=', id),
    calls: [
      [1, 2, { label: 'x', position: 1 }],
      [3, 4, { label: 'y', position: undefined }],
      [5, 6, { label: 'z', position: 7 }],
    ],
  },
];

describe('compiledOnce runs what Kysely itself compiles', () => {
  for (const engine of ['sqlite', 'postgres'] as const)
    for (const { name, build, calls } of corpus)
      it(`${name}, on ${engine}'s compiler: the same text and parameters, call after call`, async () => {
        const { db: recording, ran } = recordingDb(engine);
        const once = compiledOnce(build);
        for (const args of calls) await once(recording, ...args);
        const expected = calls.map((args) => {
          const compiled = build(recording, ...args).compile();
          return [compiled.sql, compiled.parameters];
        });
        expect(ran).toEqual(expected);
      });
});
