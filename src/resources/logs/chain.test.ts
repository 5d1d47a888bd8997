import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { appendToLogChain, entryHash, verifyLogChain } from '../../core/log-chain.js';
import { nowUtc } from '../../core/time.js';
import { CLI_ENTRY } from '../../../test/helpers/entries.js';

/** The system log's hash chain (src/core/log-chain.ts), through the API's writes and `log verify`. */
let server: TestServer;
let org: TestOrg;
let other: TestOrg;
const dataDir = mkdtempSync(join(tmpdir(), 'crewplan-log-chain-'));

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  other = await server.newOrg();
  // a busy log: users, an assignment, shifts and their edits
  const users: number[] = [];
  for (let i = 0; i < 6; i++) users.push(await org.createUser({ first_name: `Chain${i}` }));
  const assignment = await org.post('/assignments', {
    name: 'Engine 9',
    start: '2026-03-01 07:00:00',
    end: '2026-03-02 07:00:00',
    positions_to_fill: 2,
  });
  expect(assignment.status).toBeLessThan(300);
  const workTypes = await org.get('/work_types');
  for (const [i, user] of users.entries()) {
    const day = `2026-03-${String(i + 2).padStart(2, '0')}`;
    const shift = await org.post('/shifts', {
      assignment_id: assignment.body.id,
      user_id: user,
      date: day,
      start: `${day} 07:00:00`,
      end: `${day} 19:00:00`,
      work_type_id: workTypes.body[0].id,
    });
    expect(shift.status).toBeLessThan(300);
    const edit = { date: day, start: `${day} 08:00:00`, end: `${day} 20:00:00`, notes: `note ${i}` };
    expect((await org.patch(`/shifts/${shift.body.id}`, edit)).status).toBeLessThan(300);
  }
  await other.createUser();
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const db = () => server.app.db;

/** `npm run cli -- log verify` on the test server's database. */
async function cliVerify(orgId: number): Promise<{ code: number; stdout: string; json: Record<string, unknown> }> {
  // the CLI is run by its path (no PATH needed), on the server's database and nothing else of this environment
  const env = {
    CREWPLAN_DATA_DIR: dataDir,
    CREWPLAN_SECRET_KEY: 'log-chain-test-key',
    DATABASE_URL: server.config.databaseUrl ?? server.config.sqlitePath,
    ...(server.config.pgSchema ? { DATABASE_SCHEMA: server.config.pgSchema } : {}),
  };
  const run = (json: boolean) =>
    promisify(execFile)(
      process.execPath,
      [CLI_ENTRY, 'log', 'verify', '--org', String(orgId), ...(json ? ['--json'] : [])],
      { env, timeout: 60_000 },
    ).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
  const [text, json] = await Promise.all([run(false), run(true)]);
  expect(json.code).toBe(text.code);
  return { code: text.code, stdout: text.stdout, json: JSON.parse(json.stdout) };
}

const entries = async (orgId: number) =>
  db()
    .selectFrom('system_log')
    .select(['id', 'prev_hash', 'hash', 'description'])
    .where('organization_id', '=', orgId)
    .orderBy('id')
    .execute();

describe('the system log as a hash chain', () => {
  it('links every entry to the one before it, per organization', async () => {
    const rows = await entries(org.orgId);
    expect(rows.length).toBeGreaterThan(15);
    for (const [i, row] of rows.entries()) {
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.prev_hash).toBe(i === 0 ? '0'.repeat(64) : rows[i - 1]!.hash);
    }
    const verdict = await verifyLogChain(db(), org.orgId);
    expect(verdict).toEqual({ ok: true, entries: rows.length, head: rows.at(-1)!.hash });
    expect((await verifyLogChain(db(), other.orgId)).ok).toBe(true);
  });

  it('keeps one line under 50 concurrent writers', async () => {
    const before = (await entries(org.orgId)).length;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => org.createUser({ first_name: `Parallel${i}` }).then(() => 1)),
    );
    expect(answers).toHaveLength(50);
    const rows = await entries(org.orgId);
    expect(rows.length).toBe(before + 50);
    // each hash is used once as a link: no fork
    const links = rows.map((r) => r.prev_hash);
    expect(new Set(links).size).toBe(links.length);
    expect(await verifyLogChain(db(), org.orgId)).toMatchObject({ ok: true, entries: rows.length });
    const cli = await cliVerify(org.orgId);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(`intact: ${rows.length} entries`);
    expect(cli.json).toMatchObject({ organization_id: org.orgId, ok: true, entries: rows.length });
  });

  it('moves the head in one statement while it holds the hash this process wrote, else reads it', async () => {
    /** The statements on log_chain_head of one write through the API. */
    const headStatements = async () => {
      const texts: string[] = [];
      const listener = (text: string) => texts.push(text);
      server.app.dbHandle.queryLog.add(listener);
      try {
        await org.createUser({ first_name: 'Head' });
      } finally {
        server.app.dbHandle.queryLog.delete(listener);
      }
      return texts.filter((text) => text.includes('log_chain_head')).map((text) => text.split(' ')[0]);
    };
    await org.createUser({ first_name: 'Before' });
    expect(await headStatements()).toEqual(['update']);

    // another process appends (by hand here): this process's hash is no longer the head
    const head = await db()
      .selectFrom('log_chain_head')
      .select('last_hash')
      .where('organization_id', '=', org.orgId)
      .executeTakeFirstOrThrow();
    const row = {
      organization_id: org.orgId,
      created_at: nowUtc(),
      action: 'test.outside',
      entity_type: null,
      entity_id: null,
      description: 'Another process wrote this.',
      actor_user_id: null,
      actor_name: 'Test',
      client_id: null,
      changes: null,
    };
    const hash = entryHash(head.last_hash, row);
    await db()
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('system_log')
          .values({ ...row, prev_hash: head.last_hash, hash })
          .execute();
        await trx
          .updateTable('log_chain_head')
          .set({ last_hash: hash })
          .where('organization_id', '=', org.orgId)
          .execute();
      });
    expect(await headStatements()).toEqual(['update', 'insert', 'update']);
    expect(await headStatements()).toEqual(['update']);

    // an entry of this process rolled back: the hash it remembers was never committed
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await appendToLogChain(trx, org.orgId, [{ ...row, description: 'Rolled back.' }]);
          throw new Error('rolled back');
        }),
    ).rejects.toThrow('rolled back');
    expect(await headStatements()).toEqual(['update', 'insert', 'update']);
    expect(await verifyLogChain(db(), org.orgId)).toMatchObject({ ok: true });
  });

  it('names the first entry that was edited, deleted or cut off', async () => {
    const rows = await entries(org.orgId);
    const victim = rows[7]!;
    await db()
      .updateTable('system_log')
      .set({ description: `${victim.description}!` })
      .where('id', '=', victim.id)
      .execute();
    const edited = await cliVerify(org.orgId);
    expect(edited.code).toBe(1);
    expect(edited.stdout).toContain(`at entry 8 (log id ${victim.id},`);
    expect(edited.stdout).toContain('it was edited');
    expect(edited.json).toMatchObject({ ok: false, entryId: victim.id, entries: 7 });
    // the other organization's chain is its own
    expect((await cliVerify(other.orgId)).code).toBe(0);
    await db().updateTable('system_log').set({ description: victim.description }).where('id', '=', victim.id).execute();
    expect((await verifyLogChain(db(), org.orgId)).ok).toBe(true);

    await db().deleteFrom('system_log').where('id', '=', rows[3]!.id).execute();
    expect(await verifyLogChain(db(), org.orgId)).toMatchObject({ ok: false, entryId: rows[4]!.id });

    await db().deleteFrom('system_log').where('id', '>=', rows[2]!.id).execute();
    const cut = await verifyLogChain(db(), org.orgId);
    expect(cut).toMatchObject({ ok: false, entryId: null, entries: 2 });
    expect((await cliVerify(org.orgId)).stdout).toContain('the newest entries were deleted');
    // a new write after the cut still links to the recorded head, so the break stays visible
    await org.createUser({ first_name: 'After' });
    expect((await verifyLogChain(db(), org.orgId)).ok).toBe(false);
  }, 120_000); // three runs of the CLI (six processes): tens of seconds on a loaded machine
});

describe('migration 1500 on a log written before it', () => {
  it('chains the existing entries exactly as the writers do', async () => {
    const own = await startServer();
    try {
      const first = await own.newOrg();
      const second = await own.newOrg();
      for (let i = 0; i < 4; i++) await first.createUser({ first_name: `Old${i}` });
      await second.createUser();
      const written = await own.app.db.selectFrom('system_log').select(['id', 'hash']).orderBy('id').execute();
      const migration = await import('../../core/db/migrations/1500-log-chain.js');
      await migration.down(own.app.db);
      await migration.up(own.app.db);
      const chained = await own.app.db.selectFrom('system_log').select(['id', 'hash']).orderBy('id').execute();
      expect(chained).toEqual(written);
      for (const { orgId } of [first, second])
        expect(await verifyLogChain(own.app.db, orgId)).toMatchObject({ ok: true });
    } finally {
      await own.close();
    }
  });
});
