import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { groupCommits, withTransaction } from './transaction.js';

let server: TestServer;
let org: TestOrg;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
});
afterAll(() => server.close());

/** A transaction that writes two labels named after it, and fails between them when told to. */
function twoLabels(name: string, failBetween: boolean) {
  return withTransaction(server.app.db, async (trx) => {
    const label = (n: number) => ({ organization_id: org.orgId, label: `${name}-${n}`, color: '#000000', text_color: '#ffffff', position: 0, created_at: '2026-01-01 00:00:00' });
    await trx.insertInto('label').values(label(1)).execute();
    if (failBetween) throw new Error(`${name} failed`);
    await trx.insertInto('label').values(label(2)).execute();
    return name;
  });
}

describe('withTransaction', () => {
  it('keeps all of each concurrent transaction or none of it: a failing one leaves nothing, the others are kept', async () => {
    const names = Array.from({ length: 24 }, (_, i) => `group-${i}`);
    const commitsBefore = groupCommits(server.app.db);
    const outcomes = await Promise.allSettled(names.map((name, i) => twoLabels(name, i % 5 === 2)));
    const rows = await server.app.db.selectFrom('label').select('label').where('organization_id', '=', org.orgId).where('label', 'like', 'group-%').execute();
    const written = new Set(rows.map((r) => r.label));
    names.forEach((name, i) => {
      const failed = i % 5 === 2;
      expect(outcomes[i]).toEqual(failed ? { status: 'rejected', reason: new Error(`${name} failed`) } : { status: 'fulfilled', value: name });
      expect([written.has(`${name}-1`), written.has(`${name}-2`)]).toEqual(failed ? [false, false] : [true, true]);
    });
    expect(rows).toHaveLength(2 * names.filter((_, i) => i % 5 !== 2).length);
    // SQLite commits the transactions that waited their turn together (one fsync for a group)
    if (!onPostgres) expect(groupCommits(server.app.db) - commitsBefore).toBeLessThan(names.length / 2);
  });

  it('runs a transaction inside another as part of it', async () => {
    await expect(
      withTransaction(server.app.db, async (outer) => {
        await outer.insertInto('label').values({ organization_id: org.orgId, label: 'nested-outer', color: '#000000', text_color: '#ffffff', position: 0, created_at: '2026-01-01 00:00:00' }).execute();
        await withTransaction(outer, async (inner) => {
          await inner.insertInto('label').values({ organization_id: org.orgId, label: 'nested-inner', color: '#000000', text_color: '#ffffff', position: 0, created_at: '2026-01-01 00:00:00' }).execute();
        });
        throw new Error('outer failed');
      }),
    ).rejects.toThrow('outer failed');
    const rows = await server.app.db.selectFrom('label').select('label').where('organization_id', '=', org.orgId).where('label', 'like', 'nested-%').execute();
    expect(rows).toEqual([]);
  });
});
