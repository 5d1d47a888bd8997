import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROSTER, DEMO_USERS } from '../src/resources/users/seed.js';
import { CLI_ENTRY, SERVER_ENTRY } from './helpers/entries.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'crewplan-cli-'));
const env = {
  ...process.env,
  CREWPLAN_DATA_DIR: dir,
  DATABASE_URL: join(dir, 'cli.sqlite'),
  CREWPLAN_SECRET_KEY: 'cli-test-key',
};

async function cli(...args: string[]) {
  // node itself with tsx's loader: npx would add a process of its own to every command
  const { stdout } = await run(process.execPath, [CLI_ENTRY, ...args], {
    env,
    timeout: 60_000,
  });
  return stdout;
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A port nobody listens on right now. */
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

/**
 * The server with `npm start`'s V8 flags, run from the sources through tsx (test/quickstart.test.ts runs the
 * compiled `dist/`), on the CLI's database. Resolves once /healthz answers.
 */
async function startRealServer(): Promise<{ base: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--max-semi-space-size=32', '--max-old-space-size=320', SERVER_ENTRY], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 150; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr}`);
    const healthy = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return { base, process: child };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGTERM');
  throw new Error(`server did not become healthy: ${stderr}`);
}

async function stopRealServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

// Each CLI command is a process of its own that loads the sources through tsx: several of them in one
// test outlast vitest's 30 s default on a busy machine.
describe('npm run cli', { timeout: 120_000 }, () => {
  let organizationId: number;
  let secondClientId: string;
  let demo: { client_id: string; client_secret: string; counts: Record<string, number> };

  it('org create --json prints the organization and its first credential', async () => {
    const out = JSON.parse(await cli('org', 'create', '--name', 'Station 9', '--timezone', 'America/Denver', '--json'));
    expect(out).toEqual({
      organization_id: expect.any(Number),
      client_id: expect.any(String),
      client_secret: expect.any(String),
    });
    organizationId = out.organization_id;
  });

  it('rejects an unknown time zone', async () => {
    await expect(cli('org', 'create', '--name', 'Bad', '--timezone', 'Mars/Olympus', '--json')).rejects.toThrow(
      /time zone/,
    );
  });

  it('credentials create, list and revoke', async () => {
    const created = JSON.parse(await cli('credentials', 'create', '--org', String(organizationId), '--json'));
    expect(created).toEqual({
      organization_id: organizationId,
      client_id: expect.any(String),
      client_secret: expect.any(String),
    });
    secondClientId = created.client_id;
    const listed = JSON.parse(await cli('credentials', 'list', '--org', String(organizationId), '--json'));
    expect(listed).toHaveLength(2);
    expect(JSON.stringify(listed)).not.toContain(created.client_secret);
    await cli('credentials', 'revoke', secondClientId);
    const after = JSON.parse(await cli('credentials', 'list', '--org', String(organizationId), '--json'));
    expect(after.find((c: { client_id: string }) => c.client_id === secondClientId).revoked_at).toEqual(
      expect.any(String),
    );
  });

  it('migrate reports an up-to-date database, naming it', async () => {
    await cli('migrate');
    expect(await cli('migrate')).toBe(`SQLite ${join(dir, 'cli.sqlite')} is up to date\n`);
  });

  it('an error after the database was opened names it too', async () => {
    const failure = await cli('credentials', 'create', '--org', '999999').catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.stderr.split('\n').slice(0, 2)).toEqual([
      'error: organization 999999 does not exist',
      expect.stringMatching(new RegExp(`^database: SQLite ${join(dir, 'cli.sqlite')}`)),
    ]);
  });

  it('seed demo lists who signs in, says the others cannot, and stores the zone as the IANA spells it', async () => {
    const out = await cli('seed', 'demo', '--timezone', 'america/new_york');
    const lines = out.trim().split('\n');
    // no server has started on this database and PORT is unset: the address is not known here
    const signIn = lines.findIndex((line) => line.endsWith(`and password ${DEMO_PASSWORD} as:`));
    expect(lines[signIn]).toMatch(/^sign-in address unknown: no server has started on this database yet/);
    expect(lines.slice(signIn + 1, signIn + 1 + DEMO_USERS.length).map((line) => line.trim().split(' ')[0])).toEqual(
      DEMO_USERS.map((user) => user.username),
    );
    expect(lines.slice(signIn + 1 + DEMO_USERS.length)).toEqual([
      `The other ${DEMO_ROSTER.length - DEMO_USERS.length} demo users have no password: they are on the schedule ` +
        'but cannot sign in.',
      `database: SQLite ${join(dir, 'cli.sqlite')}`,
    ]);
    const organizationId = /^demo organization (\d+) /.exec(lines[0]!)![1]!;
    const exported = JSON.parse(await cli('org', 'export', '--org', organizationId));
    expect(exported.organization.timezone).toBe('America/New_York');
  });

  it('seed demo --json creates a demo organization with credentials', async () => {
    const out = JSON.parse(await cli('seed', 'demo', '--json'));
    expect(out).toMatchObject({
      organization_id: expect.any(Number),
      client_id: expect.any(String),
      client_secret: expect.any(String),
    });
    expect(out.counts.users).toBeGreaterThan(5);
    demo = out;
  });

  it('npm start serves the demo data (schedule, assignments, time off); a CLI revoke holds at once', async () => {
    const server = await startRealServer();
    try {
      const tokenResponse = await fetch(`${server.base}/oauth/access_token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: demo.client_id,
          client_secret: demo.client_secret,
        }),
      });
      expect(tokenResponse.status).toBe(200);
      const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
      const get = async (path: string) => {
        const response = await fetch(`${server.base}/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
        return { status: response.status, body: (await response.json()) as any };
      };
      // the demo is built around the current month in the demo's zone (America/Chicago by default)
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(new Date());
      const day = (offset: number) =>
        new Date(Date.parse(`${today}T12:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

      const schedule = await get(`/schedule?start=${day(-1)}%2000:00:00&end=${day(2)}%2000:00:00`);
      expect(schedule.status).toBe(200);
      const days = schedule.body.days as Array<{ assignments: Array<{ shifts: unknown[] }> }>;
      expect(days).toHaveLength(3);
      // four crewed assignments a day on a 24/48; a demo leave day takes one occurrence off
      for (const scheduled of days)
        expect(scheduled.assignments.flatMap((a) => a.shifts).length).toBeGreaterThanOrEqual(3);
      const shifts = days.flatMap((d) => d.assignments.flatMap((a) => a.shifts));
      expect(shifts[0]).toMatchObject({ recurring: true, user: { id: expect.any(Number), name: expect.any(String) } });

      const assignments = await get('/assignments');
      expect(assignments.status).toBe(200);
      expect(assignments.body.length).toBe(demo.counts.assignments);

      const firstPage = await get(`/time_offs?start=${day(-14)}%2000:00:00&end=${day(40)}%2000:00:00`);
      expect(firstPage.status).toBe(200);
      expect(firstPage.body.items.length).toBeGreaterThan(0);
      expect(firstPage.body.items[0]).toMatchObject({
        id: expect.any(Number),
        user: { id: expect.any(Number) },
        status: expect.any(Number),
      });
      // approved demo leave falls on its user's rotation days: each segment covers a 24-hour shift with its 30-minute break
      const approved = (firstPage.body.items as Array<{ status: number; length: number; real_length: number }>).filter(
        (t) => t.status === 1,
      );
      expect(approved.length).toBeGreaterThanOrEqual(3);
      expect(approved.map((t) => [t.length, t.real_length])).toEqual(approved.map(() => [24, 23.5]));

      // the server keeps the token it has seen; `credentials revoke` (a process of its own) holds at once
      expect((await get('/assignments')).status).toBe(200);
      await cli('credentials', 'revoke', demo.client_id);
      expect((await get('/assignments')).status).toBe(401);
    } finally {
      await stopRealServer(server.process);
    }
  });
});
