import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchDatabase, type ScratchDatabase } from './databases.js';

/**
 * Several processes on one database, started together as an operator would: the entry of
 * `npm start` (src/server.ts under tsx) and of `npm run cli`. A fresh database each time, so the
 * processes race on the migrations too. Every child is bounded by a timeout and stopped after.
 */

const PARALLEL = 50;
const SECRET_KEY = 'processes-test-secret-key';
const START_TIMEOUT_MS = 90_000;
const runFile = promisify(execFile);

let database: ScratchDatabase | undefined;
const children: ChildProcess[] = [];

afterEach(async () => {
  await Promise.all(children.splice(0).map(stop));
  await database?.cleanup();
  database = undefined;
});

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

const environment = (db: ScratchDatabase) => ({ ...process.env, ...db.env, CREWPLAN_SECRET_KEY: SECRET_KEY, LOG_LEVEL: 'error' });

/** src/server.ts in a process of its own; resolves with its base URL once /readyz answers. */
async function startServerProcess(db: ScratchDatabase): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...environment(db), PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '0', TOKEN_RATE_LIMIT_PER_MINUTE: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited with ${child.exitCode ?? child.signalCode}: ${stderr}`);
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) return url;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not become ready: ${stderr}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** `npm run cli -- org create --json`: the organization's first credential. */
async function createOrgWithCli(db: ScratchDatabase): Promise<{ client_id: string; client_secret: string }> {
  const { stdout } = await runFile(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'org', 'create', '--name', 'Processes', '--timezone', 'America/Chicago', '--json'], {
    env: environment(db),
    timeout: START_TIMEOUT_MS,
  });
  return JSON.parse(stdout) as { client_id: string; client_secret: string };
}

interface Reply {
  status: number;
  body: any;
}

function client(url: string, token: string) {
  return async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const response = await fetch(`${url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

async function accessToken(url: string, credential: { client_id: string; client_secret: string }): Promise<string> {
  const response = await fetch(`${url}/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', ...credential }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

function tally(replies: Reply[]) {
  return {
    successes: replies.filter((r) => r.status >= 200 && r.status < 300).length,
    clientErrors: replies.filter((r) => r.status >= 400 && r.status < 500).length,
    serverErrors: replies.filter((r) => r.status >= 500).map((r) => JSON.stringify(r.body)),
  };
}

describe.skipIf(process.env.TEST_DATABASE_URL)('a server and a CLI command started at once on a fresh SQLite file', () => {
  it('both come up: one applies the migrations, the other waits for them', async () => {
    database = await scratchDatabase();
    const db = database;
    const [url, credential] = await Promise.all([startServerProcess(db), createOrgWithCli(db)]);
    const api = client(url, await accessToken(url, credential));
    const user = await api('PUT', '/users', { username: 'after_start', first_name: 'After', last_name: 'Start', mail: 'a@example.com', password: 'secret-password' });
    expect(user.status).toBe(201);
  }, 180_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('three server processes started at once on a fresh PostgreSQL schema', () => {
  it('all come up, and the races driven through all three still have one winner', async () => {
    database = await scratchDatabase();
    const db = database;
    const urls = await Promise.all([startServerProcess(db), startServerProcess(db), startServerProcess(db)]);
    const credential = await createOrgWithCli(db);
    const apis = await Promise.all(urls.map(async (url) => client(url, await accessToken(url, credential))));
    const api = apis[0]!;
    const through = (i: number) => apis[i % apis.length]!;

    const newUser = async (name: string) =>
      (await api('PUT', '/users', { username: name, first_name: 'Crew', last_name: name, mail: `${name}@example.com`, password: 'secret-password' })).body.user_id as number;
    const adminId = await newUser('admin');
    const userId = await newUser('crew');
    const typeId = (await api('POST', '/time_off_types', { label: 'Vacation' })).body.id as number;
    expect((await api('POST', `/users/${userId}/timeoff/accrual/bank`, { time_off_type_id: typeId, hours: 100, admin_id: adminId })).status).toBe(201);
    const request = await api('POST', '/time_offs', { user_id: userId, admin_ids: [adminId], start_date: '2031-05-05 08:00:00', end_date: '2031-05-05 16:00:00', time_off_type_id: typeId });
    expect(request.status).toBe(201);

    // 25 approvals against 25 denials, spread over the three processes
    const decisions = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => through(i)('POST', `/time_offs/${request.body.id}/${i % 2 === 0 ? 'approve' : 'deny'}`, { admin_id: adminId })),
    );
    expect(tally(decisions)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    const approved = decisions.findIndex((r) => r.status === 200) % 2 === 0;
    const ledger = (await api('GET', `/users/${userId}/timeoff/accrual/transactions`)).body.map((row: { kind: string; hours: number }) => [row.kind, row.hours]);
    expect(ledger).toEqual(approved ? [['manual', 100], ['time_off', -8]] : [['manual', 100]]);

    // 50 overlapping shifts for one user
    const assignment = await api('POST', '/assignments', { name: 'Engine', start: '2031-01-01 07:00:00', end: '2031-01-01 08:00:00', positions_to_fill: 1 });
    expect(assignment.status).toBe(201);
    const workTypes = (await api('GET', '/work_types')).body as Array<{ id: number }>;
    const shifts = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        through(i)('POST', '/shifts', {
          assignment_id: assignment.body.id ?? assignment.body.assignment?.id,
          user_id: userId,
          date: '2031-07-01',
          start: `2031-07-01 08:${String(i).padStart(2, '0')}:00`,
          end: '2031-07-01 16:00:00',
          work_type_id: workTypes[0]!.id,
        }),
      ),
    );
    expect(tally(shifts)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expect((await api('GET', `/shifts?user_id=${userId}`)).body).toHaveLength(1);
  }, 240_000);
});
