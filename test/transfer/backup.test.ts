import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';
import { cli } from './helpers.js';

/**
 * `backup` copies the SQLite database of a running server under a write load; `restore` puts the
 * copy in place of a stopped server's database and refuses while a server has it open.
 */
describe('backup and restore (SQLite)', () => {
  let server: TestServer;
  let org: TestOrg;
  let restored: TestServer | undefined;

  beforeAll(async () => {
    server = await startServer({ databaseUrl: undefined });
    org = await server.newOrg();
  });
  afterAll(async () => {
    await restored?.close();
    await server?.close();
  });

  it('takes a backup during writes that restores every write acknowledged before it started', async () => {
    const acknowledged: number[] = [];
    let stop = false;
    let refused = 0;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i += 1) {
        const response = await org.post('/groups', { name: `writer ${w} group ${i}` });
        if (response.status === 201) acknowledged.push(response.body.id);
        else refused += 1;
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 10));
    const beforeBackup = [...acknowledged];
    const file = join(server.config.dataDir, 'backup.sqlite');
    const backup = cli(server, ['backup', '--to', file, '--json']);
    const { stdout } = await backup;
    const duringBackup = acknowledged.length - beforeBackup.length;
    stop = true;
    await Promise.all(writers);
    expect(refused).toBe(0);
    expect(duringBackup).toBeGreaterThan(0); // the server went on writing while the backup ran
    expect(JSON.parse(stdout)).toMatchObject({ file, pages: expect.any(Number) });

    // restore into the database file of a server that is not running yet
    const restoredPath = join(server.config.dataDir, 'restored.sqlite');
    await cli({ config: { ...server.config, sqlitePath: restoredPath } }, ['restore', '--from', file]);
    const check = new SQLite(restoredPath, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();

    restored = await startServer({ databaseUrl: undefined, sqlitePath: restoredPath });
    const token = await restored.request('POST', '/oauth/access_token', {
      body: { grant_type: 'client_credentials', client_id: org.clientId, client_secret: org.clientSecret },
      form: true,
    });
    expect(token.status).toBe(200);
    const groups = await restored.request<Array<{ id: string }>>('GET', '/groups', { token: token.body.access_token });
    expect(groups.status).toBe(200);
    const ids = new Set(groups.body.map((group) => Number(group.id)));
    expect(beforeBackup.filter((id) => !ids.has(id))).toEqual([]);
    expect(ids.size).toBeLessThanOrEqual(acknowledged.length);
  }, 120_000);

  it('refuses to restore over the database of a running server', async () => {
    const file = join(server.config.dataDir, 'backup.sqlite');
    await expect(cli(server, ['restore', '--from', file])).rejects.toMatchObject({
      stderr: expect.stringMatching(/in use.*stop the server first/),
    });
    expect((await org.get('/groups')).status).toBe(200);
  }, 60_000);

  it('writes the backup, the restored database and its WAL files 0600, in a folder made 0700 (F4)', async () => {
    const modeOf = (path: string) => [path, statSync(path).mode & 0o777];
    const folder = join(server.config.dataDir, 'made-by-backup', 'nightly');
    const file = join(folder, 'modes.sqlite');
    const secret = `whsec_mode_test_${randomBytes(12).toString('hex')}`;
    const hook = await org.post('/webhooks', { url: 'https://hooks.invalid/never', secret, event_types: ['x.never'] });
    expect(hook.status).toBe(201);
    await cli(server, ['backup', '--to', file]);
    expect(modeOf(file)).toEqual([file, 0o600]);
    expect(modeOf(folder)).toEqual([folder, 0o700]);
    expect(modeOf(dirname(folder))).toEqual([dirname(folder), 0o700]);
    // the copy holds no webhook signing secret in clear
    expect(readFileSync(file).includes(secret)).toBe(false);

    // a backup copied in world-readable is restored owner-only, and the server's WAL files follow
    chmodSync(file, 0o644);
    const restoredPath = join(server.config.dataDir, 'restored-modes.sqlite');
    await cli({ config: { ...server.config, sqlitePath: restoredPath } }, ['restore', '--from', file]);
    expect(modeOf(restoredPath)).toEqual([restoredPath, 0o600]);
    const second = await startServer({ databaseUrl: undefined, sqlitePath: restoredPath });
    try {
      for (const path of [restoredPath, `${restoredPath}-wal`, `${restoredPath}-shm`])
        expect(modeOf(path)).toEqual([path, 0o600]);
    } finally {
      await second.close();
    }

    // a database left world-readable by an earlier version is made owner-only when a server opens it
    chmodSync(restoredPath, 0o644);
    const third = await startServer({ databaseUrl: undefined, sqlitePath: restoredPath });
    try {
      for (const path of [restoredPath, `${restoredPath}-wal`, `${restoredPath}-shm`])
        expect(modeOf(path)).toEqual([path, 0o600]);
    } finally {
      await third.close();
    }
  }, 60_000);

  it.runIf(process.env.TEST_DATABASE_URL)(
    'points PostgreSQL users to pg_dump',
    async () => {
      const pgServer = await startServer();
      try {
        await expect(
          cli(pgServer, ['backup', '--to', join(pgServer.config.dataDir, 'x.sqlite')]),
        ).rejects.toMatchObject({ stderr: expect.stringMatching(/pg_dump/) });
      } finally {
        await pgServer.close();
      }
    },
    60_000,
  );
});
