import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDatabase, type ScratchDatabase } from './reliability/databases.js';

/**
 * The README's quick start, as a newcomer runs it, on a fresh database in a temporary folder:
 * the compiled build (`dist/`, what `npm install` makes), `npm start`, `npm run cli -- org create`
 * with a first administrator, sign-in at /app/session, a token, GET /v1/users. It checks that the
 * steps work, not how long they take (docs/performance.md has the times).
 */

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN = { username: 'chief', password: 'first-admin-password' };

let database: ScratchDatabase;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let server: ChildProcess | undefined;
let base: string;
let created: {
  organization_id: number;
  client_id: string;
  client_secret: string;
  admin_user_id: number;
  sign_in_url: string;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function cli(...args: string[]): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', 'cli', '--', ...args], { cwd: ROOT, env, timeout: 60_000 });
  return stdout;
}

/** `npm start` in a process group of its own, so that stopping it stops npm's node child too. */
async function npmStart(): Promise<ChildProcess> {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}: ${stderr}`);
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.kill(-child.pid!, 'SIGTERM');
  throw new Error(`the server did not answer /healthz within a minute: ${stderr}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

async function signIn(organizationId: number, username: string, password: string) {
  return fetch(`${base}/app/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-crewplan-session': '1' },
    body: JSON.stringify({ organization_id: organizationId, username, password }),
  });
}

beforeAll(async () => {
  // The compiled server and CLI as `npm install` builds them (incremental: quick when up to date).
  await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    timeout: 180_000,
  });
  database = await scratchDatabase();
  // a folder the server makes itself, to see the permissions it gives it
  dataDir = join(database.dataDir, 'data');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = {
    ...process.env,
    ...database.env,
    CREWPLAN_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  server = await npmStart();
}, 240_000);

afterAll(async () => {
  if (server) await stop(server);
  await database?.cleanup();
});

describe('the README quick start on the compiled build', () => {
  it('GET / leads to the web app', async () => {
    const response = await fetch(`${base}/`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/app');
  });

  it('org create with --admin-username and --admin-password prints the organization, its credential and the admin', async () => {
    const out = await cli(
      'org',
      'create',
      '--name',
      'Station 9',
      '--timezone',
      'America/Chicago',
      '--admin-username',
      ADMIN.username,
      '--admin-password',
      ADMIN.password,
      '--json',
    );
    created = JSON.parse(out);
    expect(created).toEqual({
      organization_id: expect.any(Number),
      client_id: expect.stringMatching(/^cp_/),
      client_secret: expect.stringMatching(/^cps_/),
      admin_user_id: expect.any(Number),
      sign_in_url: expect.stringMatching(/\/app$/),
    });
  });

  it('the admin signs in to the web app at /app/session', async () => {
    const response = await signIn(created.organization_id, ADMIN.username, ADMIN.password);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      user: { id: created.admin_user_id, username: ADMIN.username, role: 'Administrator', is_admin: true },
      organization: { id: created.organization_id, name: 'Station 9', timezone: 'America/Chicago' },
    });
    expect((await signIn(created.organization_id, ADMIN.username, 'not-the-password')).status).toBe(401);
  });

  it('the credential gets a token and GET /v1/users lists the admin', async () => {
    const tokenResponse = await fetch(`${base}/oauth/access_token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: created.client_id,
        client_secret: created.client_secret,
      }),
    });
    expect(tokenResponse.status).toBe(200);
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const users = await fetch(`${base}/v1/users`, { headers: { authorization: `Bearer ${token}` } });
    expect(users.status).toBe(200);
    const body = (await users.json()) as Array<{ user_id: number; username: string; role: string }>;
    expect(body.map(({ user_id, username, role }) => ({ user_id, username, role }))).toEqual([
      { user_id: created.admin_user_id, username: ADMIN.username, role: 'Administrator' },
    ]);
  });

  it('user create adds a user who signs in with the role given', async () => {
    const out = JSON.parse(
      await cli(
        'user',
        'create',
        '--org',
        String(created.organization_id),
        '--username',
        'dispatch',
        '--password',
        'dispatch-password',
        '--role',
        'Scheduler',
        '--json',
      ),
    );
    expect(out).toMatchObject({
      organization_id: created.organization_id,
      user_id: expect.any(Number),
      username: 'dispatch',
      role: 'Scheduler',
    });
    const response = await signIn(created.organization_id, 'dispatch', 'dispatch-password');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ user: { username: 'dispatch', role: 'Scheduler', is_admin: true } });
  });

  it('user create refuses a short password and a taken username, naming each problem, and writes nothing', async () => {
    const attempt = cli(
      'user',
      'create',
      '--org',
      String(created.organization_id),
      '--username',
      ' ',
      '--password',
      'abc',
    );
    await expect(attempt).rejects.toThrow(
      /--username must be 1 to 255 characters, not only spaces; --password must be 12 to 200 characters/,
    );
    await expect(
      cli(
        'user',
        'create',
        '--org',
        String(created.organization_id),
        '--username',
        'dispatch',
        '--password',
        'another-password',
      ),
    ).rejects.toThrow(/already been taken/);
    // a password given neither as an option nor on a terminal
    await expect(cli('org', 'create', '--name', 'X', '--timezone', 'UTC', '--admin-username', 'x')).rejects.toThrow(
      /--admin-password is required/,
    );
    expect((await signIn(created.organization_id, 'dispatch', 'another-password')).status).toBe(401);
  });

  it.skipIf(!!process.env.TEST_DATABASE_URL)("the data folder is the owner's alone: 0700, its files 0600", () => {
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const files = readdirSync(dataDir);
    expect(files).toEqual(
      expect.arrayContaining(['crewplan.sqlite', 'crewplan.sqlite-wal', 'crewplan.sqlite-shm', 'secret.key']),
    );
    for (const file of files) expect([file, statSync(join(dataDir, file)).mode & 0o777]).toEqual([file, 0o600]);
  });
});
