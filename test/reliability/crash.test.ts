import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { createCredential, type IssuedCredential } from '../../src/core/auth/credentials.js';
import { createDatabase } from '../../src/core/db/index.js';
import { migrateToLatest } from '../../src/core/db/migrator.js';
import { createOrganization } from '../../src/resources/organizations/repository.js';
import { scratchDatabase, type ScratchDatabase } from './databases.js';
import { SERVER_ENTRY } from '../helpers/entries.js';

/**
 * Crash safety: the real server runs as a child process while several clients stream writes
 * (PUT /users); it is killed with SIGKILL mid-stream and started again. Every write that was
 * acknowledged must be there, and every user must have its log row (nothing half-written).
 * CRASH_RUNS (default 3) sets how many kill/restart cycles one run makes.
 */

const CRASH_RUNS = Number(process.env.CRASH_RUNS ?? 3);
const WRITERS = 4;
const SECRET_KEY = 'crash-test-secret-key';
/** The tree whose dist/server.js runs (CRASH_SERVER_ROOT, default this repository). */
const ROOT = process.env.CRASH_SERVER_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..');

let database: ScratchDatabase;
let config: Readonly<Config>;
let credential: IssuedCredential;
let orgId: number;
let running: ChildProcess | undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts the compiled server (`dist/server.js`) in its own node process (no npx wrapper, so SIGKILL hits the server itself). */
async function startChild(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...database.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CREWPLAN_SECRET_KEY: SECRET_KEY,
      LOG_LEVEL: 'error',
      RATE_LIMIT_PER_MINUTE: '0',
      TOKEN_RATE_LIMIT_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk.toString()));
  running = child;
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (hasExited(child)) throw new Error(`server exited with ${child.exitCode ?? child.signalCode}: ${stderr}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not start: ${stderr}`);
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

async function killHard(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function accessToken(url: string): Promise<string> {
  const response = await fetch(`${url}/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: credential.client_id,
      client_secret: credential.client_secret,
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Writes users until the server stops answering; returns the usernames it acknowledged (201). */
async function streamWrites(url: string, token: string, prefix: string, onAck: () => void): Promise<string[]> {
  const acknowledged: string[] = [];
  let index = 0;
  for (;;) {
    index += 1;
    const username = `${prefix}_${index}`;
    try {
      const response = await fetch(`${url}/v1/users`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          username,
          first_name: 'Crash',
          last_name: prefix,
          mail: `${username}@example.com`,
          password: 'secret-password',
        }),
      });
      if (response.status === 201) {
        acknowledged.push(username);
        onAck();
      } else throw new Error(`unexpected ${response.status}: ${await response.text()}`);
    } catch (error) {
      if (error instanceof TypeError) return acknowledged; // connection refused or reset: the kill
      throw error;
    }
  }
}

/** Users and their `user.created` log rows, straight from the database. */
async function storedState() {
  const handle = createDatabase(config);
  try {
    const users = await handle.db
      .selectFrom('user_account')
      .select(['id', 'username', 'first_name', 'last_name'])
      .where('organization_id', '=', orgId)
      .execute();
    const logs = await handle.db
      .selectFrom('system_log')
      .select('entity_id')
      .where('organization_id', '=', orgId)
      .where('action', '=', 'user.created')
      .execute();
    const durability =
      handle.dialect === 'postgres'
        ? (
            await sql<{
              setting: string;
            }>`select 'synchronous_commit=' || current_setting('synchronous_commit') || ', fsync=' || current_setting('fsync') as setting`.execute(
              handle.db,
            )
          ).rows[0].setting
        : `journal_mode=${String(handle.sqlite!.pragma('journal_mode', { simple: true }))}`;
    return { users, logs, durability };
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  database = await scratchDatabase();
  config = loadConfig({ ...database.env, CREWPLAN_SECRET_KEY: SECRET_KEY });
  const handle = createDatabase(config);
  await migrateToLatest(handle.db);
  orgId = await createOrganization(handle.db, { name: 'Crash org', timezone: 'America/Chicago' });
  credential = await createCredential(handle.db, config.secretKey, orgId);
  await handle.close();
}, 120_000);

afterAll(async () => {
  if (running) await killHard(running);
  await database?.cleanup();
});

describe('SIGKILL in the middle of a stream of writes', () => {
  it(`loses no acknowledged write and leaves nothing half-written (${CRASH_RUNS} kills)`, async () => {
    const acknowledged: string[] = [];
    let { child, url } = await startChild();
    let token = await accessToken(url);
    for (let run = 1; run <= CRASH_RUNS; run += 1) {
      // the kill lands a random while after the first acknowledged write, however loaded the machine is
      let firstAck!: () => void;
      const acked = new Promise<void>((resolve) => {
        firstAck = resolve;
      });
      const writers = Array.from({ length: WRITERS }, (_, w) => streamWrites(url, token, `crash${run}w${w}`, firstAck));
      await acked;
      await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 800));
      await killHard(child);
      const written = (await Promise.all(writers)).flat();
      acknowledged.push(...written);

      ({ child, url } = await startChild());
      const users = await fetch(`${url}/v1/users`, { headers: { authorization: `Bearer ${token}` } });
      expect(users.status, 'a token issued before the crash still works').toBe(200);
      const listed = new Set(((await users.json()) as Array<{ username: string }>).map((u) => u.username));
      expect(
        acknowledged.filter((name) => !listed.has(name)),
        `run ${run}: acknowledged writes missing`,
      ).toEqual([]);
      token = await accessToken(url);
      console.info(
        `[crash] run ${run}: ${written.length} acknowledged writes before SIGKILL, all present after restart`,
      );
    }

    const { users, logs, durability } = await storedState();
    console.info(
      `[crash] ${acknowledged.length} acknowledged writes over ${CRASH_RUNS} kills; durability ${durability}`,
    );
    expect(acknowledged.length).toBeGreaterThan(0);
    const loggedIds = new Set(logs.map((l) => Number(l.entity_id)));
    expect(
      users.filter((u) => !loggedIds.has(u.id)),
      'users without their log row',
    ).toEqual([]);
    expect(
      logs.filter((l) => !users.some((u) => u.id === Number(l.entity_id))),
      'log rows without their user',
    ).toEqual([]);
    for (const user of users) {
      expect(user).toEqual({
        id: expect.any(Number),
        username: user.username,
        first_name: 'Crash',
        last_name: user.username.split('_')[0],
      });
    }
    await killHard(child);
  }, 300_000);
});
