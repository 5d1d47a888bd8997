import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { createCredential, createTokenLookup, revokeCredential } from '../../src/core/auth/credentials.js';
import { keyedHash } from '../../src/core/auth/secrets.js';
import { createDatabase } from '../../src/core/db/index.js';
import { listenerApplicationName } from '../../src/core/db/change-listener.js';
import { nowUtc } from '../../src/core/time.js';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';

/**
 * Bearer lookups are kept in memory while nothing they rest on can have changed: on SQLite while
 * the connection's `data_version` and this process's write count stay put, on PostgreSQL while the
 * database announces no change (src/core/auth/credentials.ts, src/core/auth/token-cache.ts). Either
 * way a change made by another process (the CLI) holds from the next request.
 */
let server: TestServer;
let org: TestOrg;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const tokenReads = () => server.app.dbHandle.stats.tokenReads;

async function tokenReadsOf(token: string, path = '/users'): Promise<number> {
  const before = tokenReads();
  const response = await server.request('GET', path, { token });
  expect(response.status, response.text).toBe(200);
  return tokenReads() - before;
}

/** Repeats a request until it reads no token (the listener connects on its own time), at most a few seconds. */
async function untilServedFromMemory(token: string): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if ((await tokenReadsOf(token)) === 0) return attempt;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the token was never answered from memory');
}

/** What the CLI does: its own database connection, in which the change is committed and closed. */
async function inAnotherProcess<T>(change: (db: ReturnType<typeof createDatabase>['db']) => Promise<T>): Promise<T> {
  const handle = createDatabase(server.config);
  try {
    return await change(handle.db);
  } finally {
    await handle.close();
  }
}

async function issue(credential: { client_id: string; client_secret: string }): Promise<string> {
  const response = await server.request('POST', '/oauth/access_token', {
    form: true,
    body: {
      grant_type: 'client_credentials',
      client_id: credential.client_id,
      client_secret: credential.client_secret,
    },
  });
  expect(response.status).toBe(200);
  return response.body.access_token as string;
}

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
});
afterAll(() => server.close());

async function listenerBackendPid(): Promise<number> {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>(
      'select pid from pg_stat_activity where application_name = $1',
      [listenerApplicationName(server.config.pgSchema)],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!.pid;
  } finally {
    await admin.end();
  }
}

describe('bearer lookups', () => {
  it('a known token is answered from memory, another token still read; a write by this process reads it again', async () => {
    await untilServedFromMemory(org.token);
    expect(await tokenReadsOf(org.token)).toBe(0);
    const other = await server.newOrg();
    expect(await tokenReadsOf(other.token)).toBe(1);
    expect(await tokenReadsOf(other.token)).toBe(0);
    // this process wrote (the new organization): what it kept is read again once
    expect(await tokenReadsOf(org.token)).toBe(1);
    expect(await tokenReadsOf(org.token)).toBe(0);
  });

  it.runIf(!onPostgres)('SQLite: any commit by another connection reads the token again', async () => {
    const other = await server.newOrg();
    await untilServedFromMemory(org.token);
    await inAnotherProcess((db) =>
      db.updateTable('organization').set({ name: 'Renamed' }).where('id', '=', other.orgId).execute(),
    );
    expect(await tokenReadsOf(org.token)).toBe(1);
    expect(await tokenReadsOf(org.token)).toBe(0);
  });

  it('refuses a token kept in memory once it has expired', async () => {
    await untilServedFromMemory(org.token);
    const { expires_at } = await server.app.db
      .selectFrom('access_token')
      .select('expires_at')
      .where('token_hash', '=', keyedHash(server.config.secretKey, org.token))
      .executeTakeFirstOrThrow();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime((expires_at - 1) * 1000);
      expect(await tokenReadsOf(org.token)).toBe(0);
      vi.setSystemTime(expires_at * 1000);
      const refused = await server.request('GET', '/users', { token: org.token });
      expect(refused.status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
    expect((await org.get('/users')).status).toBe(200);
  });

  it('refuses a token kept in memory once another process deletes it', async () => {
    const credential = await createCredential(server.app.db, server.config.secretKey, org.orgId, 'token deleted');
    const token = await issue(credential);
    await untilServedFromMemory(token);
    const hash = keyedHash(server.config.secretKey, token);
    const deleted = await inAnotherProcess((db) =>
      db.deleteFrom('access_token').where('token_hash', '=', hash).executeTakeFirst(),
    );
    expect(deleted.numDeletedRows).toBe(1n);
    expect((await server.request('GET', '/users', { token })).status).toBe(401);
    expect((await org.get('/users')).status).toBe(200);
  });

  it('refuses a token at once after another process revokes its credential, and keeps the others', async () => {
    const credential = await createCredential(server.app.db, server.config.secretKey, org.orgId, 'revoked elsewhere');
    const token = await issue(credential);
    await untilServedFromMemory(token);
    expect(await inAnotherProcess((db) => revokeCredential(db, credential.client_id))).toBe(true);
    const refused = await server.request('GET', '/users', { token });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      status: 401,
      error: 'unauthorized',
      error_message: 'The access token is not valid.',
    });
    expect((await org.get('/users')).status).toBe(200);
  });

  it.runIf(!onPostgres)(
    'SQLite: lookups asked for together read data_version after all of them, so a commit made meanwhile holds',
    async () => {
      const credential = await createCredential(server.app.db, server.config.secretKey, org.orgId, 'asked together');
      const token = await issue(credential);
      const lookup = createTokenLookup(server.app.dbHandle, server.config.secretKey);
      try {
        expect(await lookup.find(token)).toMatchObject({ client_id: credential.client_id });
        const reads = tokenReads();
        expect(await lookup.find(token)).toMatchObject({ client_id: credential.client_id });
        expect(tokenReads()).toBe(reads); // kept: answered from memory
        const asked = [lookup.find(token), lookup.find(token)];
        // another connection (what the CLI does) revokes after both were asked, before they are answered
        const other = new SQLite(server.config.sqlitePath);
        other
          .prepare('update api_credential set revoked_at = ? where client_id = ?')
          .run(nowUtc(), credential.client_id);
        other.close();
        expect(await Promise.all(asked)).toEqual([undefined, undefined]);
        expect(await lookup.find(token)).toBeUndefined();
      } finally {
        await lookup.close();
      }
    },
  );

  it('refuses every request sent after another process revoked the credential, while requests keep coming', async () => {
    const credential = await createCredential(server.app.db, server.config.secretKey, org.orgId, 'revoked in flight');
    const token = await issue(credential);
    await untilServedFromMemory(token);
    const answers: Array<{ sentAt: number; status: number }> = [];
    let revokedAt = Number.POSITIVE_INFINITY;
    let stopAt = Number.POSITIVE_INFINITY;
    const client = async () => {
      while (performance.now() < stopAt) {
        const sentAt = performance.now();
        const response = await server.request('GET', '/users', { token });
        answers.push({ sentAt, status: response.status });
      }
    };
    const clients = Array.from({ length: 8 }, client);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await inAnotherProcess((db) => revokeCredential(db, credential.client_id))).toBe(true);
    revokedAt = performance.now();
    stopAt = revokedAt + 300;
    await Promise.all(clients);
    const before = answers.filter((answer) => answer.sentAt < revokedAt);
    const after = answers.filter((answer) => answer.sentAt > revokedAt);
    expect(before.some((answer) => answer.status === 200)).toBe(true);
    expect(after.length).toBeGreaterThan(8);
    expect(after.filter((answer) => answer.status !== 401)).toEqual([]);
  });

  it('shows another process’s change of the organization’s time zone on the next request', async () => {
    await org.createUser({ first_name: 'Log', last_name: 'Entry' });
    await untilServedFromMemory(org.token);
    const offsetOfNewestLog = async () => {
      const response = await org.get('/logs', { query: { limit: 1 } });
      expect(response.status, response.text).toBe(200);
      return JSON.stringify(response.body).match(/"created":"[^"]+T\d\d:\d\d:\d\d([+-]\d{4})"/)?.[1];
    };
    const zone = async (timezone: string) =>
      inAnotherProcess((db) => db.updateTable('organization').set({ timezone }).where('id', '=', org.orgId).execute());
    await zone('Asia/Kolkata');
    expect(await offsetOfNewestLog()).toBe('+0530');
    await zone('Asia/Kathmandu');
    expect(await offsetOfNewestLog()).toBe('+0545');
    await zone(org.timezone);
  });

  it.runIf(onPostgres)(
    'PostgreSQL: a change whose announcement is held back still holds from the next request',
    async (context) => {
      const credential = await createCredential(server.app.db, server.config.secretKey, org.orgId, 'held back');
      const token = await issue(credential);
      await org.createUser({ first_name: 'Held', last_name: 'Back' });
      await untilServedFromMemory(token);
      // The listener's backend process, stopped: the commit below signals it, but it can announce
      // nothing until it is let go, well after the request has come.
      const pid = await listenerBackendPid();
      try {
        process.kill(pid, 0);
      } catch {
        return context.skip('the database server runs where this process cannot signal its backends');
      }
      const offsetOf = async (response: Promise<{ status: number; body: unknown }>) =>
        JSON.stringify((await response).body).match(/"created":"[^"]+T\d\d:\d\d:\d\d([+-]\d{4})"/)?.[1];
      const heldBack = async <T>(change: () => Promise<unknown>, request: () => Promise<T>): Promise<T> => {
        process.kill(pid, 'SIGSTOP');
        try {
          await change();
          const answer = request();
          await new Promise((resolve) => setTimeout(resolve, 300));
          process.kill(pid, 'SIGCONT');
          return await answer;
        } finally {
          process.kill(pid, 'SIGCONT');
        }
      };
      const zone = (timezone: string) => () =>
        inAnotherProcess((db) =>
          db.updateTable('organization').set({ timezone }).where('id', '=', org.orgId).execute(),
        );
      const newestLog = () => server.request('GET', '/logs', { token, query: { limit: 1 } });
      expect(await heldBack(zone('Asia/Kolkata'), () => offsetOf(newestLog()))).toBe('+0530');
      await untilServedFromMemory(token);
      await untilServedFromMemory(token);
      expect(await heldBack(zone('Asia/Kathmandu'), () => offsetOf(newestLog()))).toBe('+0545');
      await zone(org.timezone)();
      await untilServedFromMemory(token);
      const refused = await heldBack(
        () => inAnotherProcess((db) => revokeCredential(db, credential.client_id)),
        () => server.request('GET', '/users', { token }),
      );
      expect(refused.status).toBe(401);
    },
  );

  it.runIf(onPostgres)(
    'PostgreSQL: serves nothing from memory while the listening connection is lost, and again once it is back',
    async () => {
      await untilServedFromMemory(org.token);
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        // only this server's listener: its name carries the test's own schema
        const { rowCount } = await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
          [listenerApplicationName(server.config.pgSchema)],
        );
        expect(rowCount).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await tokenReadsOf(org.token)).toBe(1);
      expect(await untilServedFromMemory(org.token)).toBeGreaterThan(0);
    },
  );
});
