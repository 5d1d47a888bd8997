import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDatabase, type ScratchDatabase } from './reliability/databases.js';

/**
 * The README's quick start, as a newcomer runs it: its commands, read from README.md and run by the shell in a
 * folder of their own that holds the project (package.json, the compiled dist/, the web app, node_modules),
 * with no crewplan variable set. One deviation: `npm start` gets a free PORT (8080 may be taken on a test
 * machine); the CLI gets none and must find the server's database and address by itself. `npm install` is
 * replaced by the build it runs. On PostgreSQL (TEST_DATABASE_URL) the machine's DATABASE_URL names a schema of
 * its own. It checks that the steps work, not how long they take (docs/performance.md has the times).
 */

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** What the project folder of a checkout holds for `npm start` and `npm run cli`. */
const PROJECT = ['package.json', 'dist', 'node_modules', 'web'];
/** The variables src/config.ts reads for the database, the data and the address: none is set on this machine. */
const CREWPLAN_VARIABLES = /^(DATABASE_|CREWPLAN_|PORT$|HOST$|PUBLIC_BASE_URL$|LOG_LEVEL$|METRICS_TOKEN$)/;

let database: ScratchDatabase;
let folder: string;
let dataDir: string;
let machine: NodeJS.ProcessEnv;
let port: number;
const servers: ChildProcess[] = [];
let base: string;
let admin: { username: string; password: string };
let created: {
  organization_id: number;
  client_id: string;
  client_secret: string;
  admin_user_id: number;
  sign_in_url: string;
};

/** The quick start's commands in the README, comment lines and continuations joined; and its sample output. */
function quickStart(): { blocks: string[][]; sample: string } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Quick start'),
    readme.indexOf('\n## ', readme.indexOf('## Quick start')),
  );
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const sample = /^# (\{.*\})$/m.exec(blocks.join('\n'))?.[1] ?? '';
  const commands = blocks.map((block) =>
    block
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line && !line.startsWith('#')),
  );
  return { blocks: commands, sample };
}

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

/** A folder holding the project as a checkout does (links to this one's files). */
function projectFolder(): string {
  const made = mkdtempSync(join(tmpdir(), 'crewplan-quickstart-'));
  for (const entry of PROJECT) symlinkSync(join(ROOT, entry), join(made, entry));
  return made;
}

/** A README command, as written, by the shell in `cwd` with the machine's variables (and `env`). */
async function shell(command: string, cwd = folder, env: NodeJS.ProcessEnv = {}) {
  return run('sh', ['-c', command], { cwd, env: { ...machine, ...env }, timeout: 60_000 });
}

async function cli(...args: string[]): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', 'cli', '--', ...args], {
    cwd: folder,
    env: machine,
    timeout: 60_000,
  });
  return stdout;
}

/**
 * `npm start` in a process group of its own, so that stopping it stops npm's node child too. Ready once its
 * own log says it listens at `url` (not when something answers there: on a busy machine another suite's
 * server may have taken the port first, and this one then exits).
 */
async function npmStart(cwd: string, env: NodeJS.ProcessEnv, url: string): Promise<ChildProcess> {
  const child = spawn('sh', ['-c', 'npm start'], {
    cwd,
    env: { ...machine, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  servers.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}: ${stderr}`);
    if (stdout.includes(`"msg":"Server listening at ${url}"`)) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.kill(-child.pid!, 'SIGTERM');
  throw new Error(`the server did not listen at ${url} within a minute: ${stderr}`);
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

const folders: string[] = [];

beforeAll(async () => {
  // The compiled server and CLI as `npm install` builds them (incremental: quick when up to date).
  await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    timeout: 180_000,
  });
  database = await scratchDatabase();
  folder = projectFolder();
  folders.push(folder);
  // a folder the server makes itself (the default ./data), to see the permissions it gives it
  dataDir = join(folder, 'data');
  machine = Object.fromEntries(Object.entries(process.env).filter(([name]) => !CREWPLAN_VARIABLES.test(name)));
  if (database.databaseUrl)
    Object.assign(machine, { DATABASE_URL: database.databaseUrl, DATABASE_SCHEMA: database.pgSchema });
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const [install] = quickStart().blocks;
  expect(install).toEqual(['npm install', 'npm start']);
  await npmStart(folder, { PORT: String(port) }, base);
}, 240_000);

afterAll(async () => {
  for (const child of servers) await stop(child);
  await database?.cleanup();
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

describe('the README quick start on the compiled build', () => {
  it('GET / leads to the web app', async () => {
    const response = await fetch(`${base}/`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/app');
  });

  it("the README's org create, run as written without variables, finds the server's database and address", async () => {
    const [, [command, ...more]] = quickStart().blocks;
    expect(more).toEqual([]);
    const given = /--admin-username (\S+) --admin-password '([^']+)'/.exec(command!);
    admin = { username: given![1]!, password: given![2]! };
    const { stdout, stderr } = await shell(command!);
    created = JSON.parse(stdout);
    // the keys of the README's sample output, in its order
    expect(Object.keys(created)).toEqual(Object.keys(JSON.parse(quickStart().sample)));
    expect(created).toEqual({
      organization_id: expect.any(Number),
      client_id: expect.stringMatching(/^cp_/),
      client_secret: expect.stringMatching(/^cps_/),
      admin_user_id: expect.any(Number),
      sign_in_url: `http://localhost:${port}/app`,
    });
    const opened = database.databaseUrl
      ? `PostgreSQL ${database.databaseUrl} (schema ${database.pgSchema})`
      : `SQLite ${join(dataDir, 'crewplan.sqlite')}`;
    expect(stderr).toBe(`database: ${opened}\n`);
  });

  it('the admin signs in to the web app at /app/session', async () => {
    const response = await signIn(created.organization_id, admin.username, admin.password);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      user: { id: created.admin_user_id, username: admin.username, role: 'Administrator', is_admin: true },
      organization: { id: created.organization_id, name: 'Station 9', timezone: 'America/Chicago' },
    });
    expect((await signIn(created.organization_id, admin.username, 'not-the-password')).status).toBe(401);
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
      { user_id: created.admin_user_id, username: admin.username, role: 'Administrator' },
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

describe('the CLI run without the variables the server was started with', () => {
  it('names the database it opened, a new one, and does not claim a sign-in address', async () => {
    const elsewhere = projectFolder();
    folders.push(elsewhere);
    const serverData = join(elsewhere, 'srv');
    mkdirSync(serverData);
    const serverPort = await freePort();
    // a SQLite server with its own data dir and port (PostgreSQL's variables are the machine's)
    const serverEnv = {
      CREWPLAN_DATA_DIR: serverData,
      PORT: String(serverPort),
      DATABASE_URL: '',
      DATABASE_SCHEMA: '',
    };
    await npmStart(elsewhere, serverEnv, `http://127.0.0.1:${serverPort}`);
    const create = "npm run --silent cli -- org create --name 'Station 10' --timezone america/chicago";
    const { stdout } = await shell(create, elsewhere, { DATABASE_URL: '', DATABASE_SCHEMA: '' });
    const lines = stdout.trim().split('\n');
    expect(lines.slice(-1)).toEqual([
      `database: SQLite ${join(elsewhere, 'data', 'crewplan.sqlite')} (new: created by this command)`,
    ]);
    // with the server's variables, the server's database and address
    const withServer = JSON.parse(
      (await shell(`${create} --admin-username chief --admin-password chief-password --json`, elsewhere, serverEnv))
        .stdout,
    );
    expect(withServer.sign_in_url).toBe(`http://localhost:${serverPort}/app`);
    const unknown = await shell(`${create} --admin-username chief --admin-password chief-password`, elsewhere, {
      DATABASE_URL: '',
      DATABASE_SCHEMA: '',
    });
    expect(unknown.stdout).toContain(
      'sign-in address unknown: no server has started on this database yet and PUBLIC_BASE_URL and PORT are ' +
        'unset here; start the server with this DATABASE_URL and CREWPLAN_DATA_DIR\n' +
        `database: SQLite ${join(elsewhere, 'data', 'crewplan.sqlite')}\n`,
    );
    // the zone as the IANA spells it
    const session = await fetch(`http://127.0.0.1:${serverPort}/app/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-crewplan-session': '1' },
      body: JSON.stringify({
        organization_id: withServer.organization_id,
        username: 'chief',
        password: 'chief-password',
      }),
    });
    expect(await session.json()).toMatchObject({ organization: { timezone: 'America/Chicago' } });
  }, 120_000);
});
