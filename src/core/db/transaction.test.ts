import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { type TestOrg, testDatabaseUrl, useOrgs } from '../../../test/helpers/server.js';
import { sql } from 'kysely';
import { groupCommits, withTransaction } from './transaction.js';

const { server, org } = await useOrgs();
const onPostgres = Boolean(testDatabaseUrl);

/** A transaction that writes two labels named after it, and fails between them when told to. */
function twoLabels(name: string, failBetween: boolean) {
  return withTransaction(server.app.db, async (trx) => {
    const label = (n: number) => ({
      organization_id: org.orgId,
      label: `${name}-${n}`,
      color: '#000000',
      text_color: '#ffffff',
      position: 0,
      created_at: '2026-01-01 00:00:00',
    });
    await trx.insertInto('label').values(label(1)).execute();
    if (failBetween) throw new Error(`${name} failed`);
    await trx.insertInto('label').values(label(2)).execute();
    return name;
  });
}

describe('withTransaction', () => {
  it('keeps all of each concurrent transaction or none: a failing one leaves nothing, the others stay', async () => {
    const names = Array.from({ length: 24 }, (_, i) => `group-${i}`);
    const commitsBefore = groupCommits(server.app.db);
    const outcomes = await Promise.allSettled(names.map((name, i) => twoLabels(name, i % 5 === 2)));
    const rows = await server.app.db
      .selectFrom('label')
      .select('label')
      .where('organization_id', '=', org.orgId)
      .where('label', 'like', 'group-%')
      .execute();
    const written = new Set(rows.map((r) => r.label));
    names.forEach((name, i) => {
      const failed = i % 5 === 2;
      expect(outcomes[i]).toEqual(
        failed ? { status: 'rejected', reason: new Error(`${name} failed`) } : { status: 'fulfilled', value: name },
      );
      expect([written.has(`${name}-1`), written.has(`${name}-2`)]).toEqual(failed ? [false, false] : [true, true]);
    });
    expect(rows).toHaveLength(2 * names.filter((_, i) => i % 5 !== 2).length);
    // SQLite commits the transactions that waited their turn together (one fsync for a group)
    if (!onPostgres) expect(groupCommits(server.app.db) - commitsBefore).toBeLessThan(names.length / 2);
  });

  it.skipIf(onPostgres)(
    'answers none of a group whose database transaction SQLite ended: each is durable or failed',
    async () => {
      // RAISE(ROLLBACK) ends the whole database transaction, as a full disk or an I/O error would
      const db = server.app.db;
      await sql`create temp trigger poison before insert on label when new.label = 'poison-1'
      begin select raise(rollback, 'poisoned'); end`.execute(db);
      try {
        const names = Array.from({ length: 12 }, (_, i) => (i === 5 ? 'poison' : `ended-${i}`));
        const outcomes = await Promise.allSettled(names.map((name) => twoLabels(name, false)));
        const rows = await db
          .selectFrom('label')
          .select('label')
          .where('organization_id', '=', org.orgId)
          .where((eb) => eb.or([eb('label', 'like', 'ended-%'), eb('label', 'like', 'poison-%')]))
          .execute();
        const written = new Set(rows.map((r) => r.label));
        names.forEach((name, i) => {
          const durable = [written.has(`${name}-1`), written.has(`${name}-2`)];
          expect(durable).toEqual(outcomes[i]!.status === 'fulfilled' ? [true, true] : [false, false]);
        });
        // the poisoned one and those of its group before it fail; those still waiting run in the next group
        expect(outcomes.map((o) => o.status)).toEqual(names.map((_, i) => (i <= 5 ? 'rejected' : 'fulfilled')));
        expect(rows).toHaveLength(2 * 6);
      } finally {
        await sql`drop trigger poison`.execute(db);
      }
      // the next group commits as usual
      await expect(twoLabels('after-ended', false)).resolves.toBe('after-ended');
    },
  );

  it('runs a transaction inside another as part of it', async () => {
    await expect(
      withTransaction(server.app.db, async (outer) => {
        await outer
          .insertInto('label')
          .values({
            organization_id: org.orgId,
            label: 'nested-outer',
            color: '#000000',
            text_color: '#ffffff',
            position: 0,
            created_at: '2026-01-01 00:00:00',
          })
          .execute();
        await withTransaction(outer, async (inner) => {
          await inner
            .insertInto('label')
            .values({
              organization_id: org.orgId,
              label: 'nested-inner',
              color: '#000000',
              text_color: '#ffffff',
              position: 0,
              created_at: '2026-01-01 00:00:00',
            })
            .execute();
        });
        throw new Error('outer failed');
      }),
    ).rejects.toThrow('outer failed');
    const rows = await server.app.db
      .selectFrom('label')
      .select('label')
      .where('organization_id', '=', org.orgId)
      .where('label', 'like', 'nested-%')
      .execute();
    expect(rows).toEqual([]);
  });
});

describe.skipIf(onPostgres)('SQLite shared with another process', () => {
  /** Another connection to the server's file, as the CLI opens it; it does not wait for locks. */
  const otherProcess = () => new SQLite(server.config.sqlitePath, { timeout: 0 });

  it('takes the write lock when a transaction begins: no other writer between its read and its write', async () => {
    const other = otherProcess();
    try {
      await withTransaction(server.app.db, async (trx) => {
        await trx.selectFrom('label').select('id').where('organization_id', '=', org.orgId).execute();
        // a deferred transaction would let this writer in, and then fail its own write (SQLITE_BUSY)
        expect(() => other.exec('begin immediate')).toThrow(/locked|busy/i);
        await trx
          .insertInto('label')
          .values({
            organization_id: org.orgId,
            label: 'after-read',
            color: '#000000',
            text_color: '#ffffff',
            position: 0,
            created_at: '2026-01-01 00:00:00',
          })
          .execute();
      });
    } finally {
      other.close();
    }
  });

  it('answers 409 and writes nothing when another process holds the lock past the wait', async () => {
    const other = otherProcess();
    other.exec('begin immediate');
    let response: Awaited<ReturnType<TestOrg['post']>>;
    try {
      response = await org.post('/time_off_types', { label: 'Busy writer' });
    } finally {
      other.exec('rollback');
      other.close();
    }
    expect(response).toAnswer(409, {
      status: 409,
      error: 'conflict',
      error_message: expect.stringContaining('try again'),
    });
    const types = await org.get('/time_off_types');
    expect(types.body.map((type: { label: string }) => type.label)).not.toContain('Busy writer');
    expect((await org.post('/time_off_types', { label: 'Busy writer' })).status).toBe(201);
  });
});
