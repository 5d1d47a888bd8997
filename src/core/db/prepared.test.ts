import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { preparedQuery } from './prepared.js';
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
});
