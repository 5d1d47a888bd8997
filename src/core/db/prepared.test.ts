import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { preparedInsert, preparedQuery } from './prepared.js';
import type { Db } from './transaction.js';

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
});
afterAll(() => server.close());

describe('preparedQuery', () => {
  it('compiles once and binds each call its own arguments, constants kept', async () => {
    let builds = 0;
    const usersNamed = preparedQuery((db: Db, orgId: number, firstName: string) => {
      builds += 1;
      return db
        .selectFrom('user_account')
        .select(['id', 'first_name'])
        .where('organization_id', '=', orgId)
        .where('first_name', '=', firstName)
        .where('deleted_at', 'is', null)
        .where('active', '=', 1)
        .orderBy('id')
        .limit(5);
    });
    const ada = await org.createUser({ first_name: 'Ada' });
    const bo = await org.createUser({ first_name: 'Bo' });
    const other = await server.newOrg();
    await other.createUser({ first_name: 'Ada' });

    expect(await usersNamed(server.app.db, org.orgId, 'Ada')).toEqual([{ id: ada, first_name: 'Ada' }]);
    expect(await usersNamed(server.app.db, org.orgId, 'Bo')).toEqual([{ id: bo, first_name: 'Bo' }]);
    expect(await usersNamed(server.app.db, org.orgId, 'Nobody')).toEqual([]);
    expect(builds).toBe(1);
  });

  it('binds list arguments element by element, one template per list length', async () => {
    let builds = 0;
    const usersByIds = preparedQuery((db: Db, orgId: number, ids: number[]) => {
      builds += 1;
      return db.selectFrom('user_account').select('id').where('organization_id', '=', orgId).where('id', 'in', ids).orderBy('id');
    });
    const [a, b, c] = [await org.createUser(), await org.createUser(), await org.createUser()];
    const other = await server.newOrg();
    const foreign = await other.createUser();
    const ids = async (list: number[]) => (await usersByIds(server.app.db, org.orgId, list)).map((r) => r.id);

    expect(await ids([a, b])).toEqual([a, b]);
    expect(await ids([c, foreign])).toEqual([c]);
    expect(await ids([a, b, c])).toEqual([a, b, c]);
    expect(await ids([b])).toEqual([b]);
    expect(builds).toBe(3);
  });

  it('inserts with null values bound at run time, and counts the insert as a write', async () => {
    const insertLabel = preparedInsert('label', ['organization_id', 'label', 'color', 'text_color', 'position', 'created_at', 'deleted_at']);
    const writesBefore = server.app.dbHandle.stats.writes;
    const first = await insertLabel(server.app.db, { organization_id: org.orgId, label: 'P1', color: '#000000', text_color: '#ffffff', position: 0, created_at: '2026-01-01 00:00:00', deleted_at: null });
    const second = await insertLabel(server.app.db, { organization_id: org.orgId, label: 'P2', color: '#111111', text_color: '#eeeeee', position: 1, created_at: '2026-01-01 00:00:00', deleted_at: '2026-01-02 00:00:00' });
    expect(server.app.dbHandle.stats.writes - writesBefore).toBe(2);
    const rows = await server.app.db.selectFrom('label').select(['id', 'label', 'color', 'deleted_at']).where('id', 'in', [first, second]).orderBy('id').execute();
    expect(rows).toEqual([
      { id: first, label: 'P1', color: '#000000', deleted_at: null },
      { id: second, label: 'P2', color: '#111111', deleted_at: '2026-01-02 00:00:00' },
    ]);
  });
});
