import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createCredential } from '../../src/core/auth/credentials.js';
import { createDatabase, type DatabaseHandle } from '../../src/core/db/index.js';
import { migrateToLatest } from '../../src/core/db/migrator.js';
import { createOrganization } from '../../src/resources/organizations/repository.js';
import { SIGN_IN_LIMITS } from '../../src/webapp/session-routes.js';
import { scratchDatabase, type ScratchDatabase } from './databases.js';
import { SERVER_ENTRY } from '../helpers/entries.js';

/**
 * The web app's sign-in delays and budgets and the token endpoint's limit hold across server processes on one
 * database and across a restart (docs/security.md, API2): two `src/server.ts` processes, then a
 * third started after one is stopped.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SECRET_KEY = 'sign-in-limits-test-key';
const PASSWORD = 'secret-password';
/** Token requests per minute per address in the processes. */
const TOKEN_LIMIT = 4;

let database: ScratchDatabase;
let handle: DatabaseHandle;
let orgId: number;
const children: ChildProcess[] = [];

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

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** A server process of its own on the shared database; its URL once /readyz answers. */
async function startProcess(): Promise<{ child: ChildProcess; url: string }> {
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
      TOKEN_RATE_LIMIT_PER_MINUTE: String(TOKEN_LIMIT),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (hasExited(child)) throw new Error(`server exited with ${child.exitCode ?? child.signalCode}: ${stderr}`);
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not start: ${stderr}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function signIn(url: string, username: string, password: string, cookie?: string) {
  return fetch(`${url}/app/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-crewplan-session': '1', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ organization_id: orgId, username, password }),
  });
}

let first: string;
let second: string;

beforeAll(async () => {
  database = await scratchDatabase();
  const config = loadConfig({ ...database.env, CREWPLAN_SECRET_KEY: SECRET_KEY });
  handle = createDatabase(config);
  await migrateToLatest(handle.db);
  orgId = await createOrganization(handle.db, { name: 'Sign-in limits', timezone: 'America/Chicago' });
  const credential = await createCredential(handle.db, config.secretKey, orgId);
  [{ url: first }, { url: second }] = await Promise.all([startProcess(), startProcess()]);
  const token = await fetch(`${first}/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: credential.client_id,
      client_secret: credential.client_secret,
    }),
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  for (const username of ['locked_out', 'signs_in']) {
    const created = await fetch(`${first}/v1/users`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
      body: JSON.stringify({
        username,
        first_name: 'Sign',
        last_name: 'In',
        mail: `${username}@example.com`,
        password: PASSWORD,
      }),
    });
    expect(created.status).toBe(201);
  }
}, 120_000);

afterAll(async () => {
  await Promise.all(children.map(stop));
  await handle?.close();
  await database?.cleanup();
});

describe('web app sign-in limits (POST /app/session) across processes', () => {
  it(`delays an account through both processes, keeps the delay over a restart, and lets a known device in`, async () => {
    const device = (await signIn(first, 'locked_out', PASSWORD)).headers
      .getSetCookie()
      .find((line) => line.startsWith('crewplan_device='))!
      .split(';')[0];
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push((await signIn(i % 2 === 0 ? first : second, 'locked_out', 'wrong')).status);
    expect(statuses).toEqual(Array(5).fill(401));

    // the right password from an unknown browser, in either process: delayed
    for (const url of [first, second]) {
      const blocked = await signIn(url, 'locked_out', PASSWORD);
      expect(blocked.status).toBe(429);
      expect(await blocked.json()).toEqual({
        status: 429,
        error: 'too_many_requests',
        error_message: 'Too many failed sign-ins for this account. Try again in 30 seconds.',
      });
      expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    }
    // the browser that signed in before passes with the right password, through the other process
    expect((await signIn(second, 'locked_out', PASSWORD, device)).status).toBe(200);
    // another account is not affected
    expect((await signIn(second, 'signs_in', PASSWORD)).status).toBe(200);

    // a restart forgets nothing
    const restarted = children[1];
    await stop(restarted);
    const { url: third } = await startProcess();
    expect((await signIn(third, 'locked_out', PASSWORD)).status).toBe(429);

    // the delay ends (moved into the past here rather than waited for)
    await handle.db
      .updateTable('sign_in_delay')
      .set({ blocked_until: Date.now() - 1000 })
      .execute();
    expect((await signIn(third, 'locked_out', PASSWORD)).status).toBe(200);
    second = third;
  }, 120_000);

  it(`counts a client address's attempts in both processes (${SIGN_IN_LIMITS.perAddress} per window)`, async () => {
    await handle.db.deleteFrom('sign_in_attempt').execute();
    await handle.db.deleteFrom('sign_in_delay').execute();
    const statuses: number[] = [];
    for (let i = 0; i <= SIGN_IN_LIMITS.perAddress; i += 1)
      statuses.push((await signIn(i % 2 === 0 ? first : second, `nobody_${i}`, 'wrong')).status);
    expect(statuses).toEqual([...Array(SIGN_IN_LIMITS.perAddress).fill(401), 429]);
    expect((await signIn(second, 'signs_in', PASSWORD)).status).toBe(429);
  }, 120_000);

  it(`shares the token endpoint's budget per address (${TOKEN_LIMIT} a minute) between the processes`, async () => {
    const tokenRequest = (url: string) =>
      fetch(`${url}/oauth/access_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'cp_unknown', client_secret: 'wrong' }),
      });
    await handle.db.deleteFrom('sign_in_attempt').execute(); // the budget spent before this test
    const statuses: number[] = [];
    for (let i = 0; i < TOKEN_LIMIT; i += 1) statuses.push((await tokenRequest(i % 2 === 0 ? first : second)).status);
    expect(statuses).toEqual(Array(TOKEN_LIMIT).fill(401));
    for (const url of [first, second]) {
      const refused = await tokenRequest(url);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('ratelimit-limit')).toBe(String(TOKEN_LIMIT));
    }
  }, 60_000);
});
