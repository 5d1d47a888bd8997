import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, testDatabaseUrl } from './helpers/server.js';
import { CLI_ENTRY } from './helpers/entries.js';

/**
 * `npm run cli -- user set-password` (docs/security.md, "Sign-in"): the real CLI, a process of its
 * own, on the database of a running server (SQLite file or PostgreSQL schema).
 */

const server = await startServer();
afterAll(() => server.close());
const org = await server.newOrg();
const PASSWORD = 'secret-password';
const NEW_PASSWORD = 'a-brand-new-passphrase';
const userId = await org.createUser({ username: 'night.captain', role: 'Administrator' });

const env = {
  ...process.env,
  CREWPLAN_DATA_DIR: server.config.dataDir,
  CREWPLAN_SECRET_KEY: server.config.secretKey.toString('utf8'),
  DATABASE_URL: testDatabaseUrl ?? server.config.sqlitePath,
  ...(server.config.pgSchema ? { DATABASE_SCHEMA: server.config.pgSchema } : {}),
};

/** Runs the CLI with `input` on its standard input; its exit code and output. */
function cli(args: string[], input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    // a run that opened the database names it on a line of its own (test/cli.test.ts): set aside here
    const without = (text: string) => text.replace(/^database: .*\n/gm, '');
    child.on('close', (code) => resolve({ code, stdout: without(stdout), stderr: without(stderr) }));
    child.stdin.end(input);
  });
}

const signIn = (password: string) =>
  server.request('POST', '/app/session', {
    body: { organization_id: org.orgId, username: 'night.captain', password },
    headers: { 'x-crewplan-session': '1' },
  });

const setPassword = (...extra: string[]) => [
  'user',
  'set-password',
  '--org',
  String(org.orgId),
  '--username',
  'night.captain',
  ...extra,
];

describe('npm run cli -- user set-password', { timeout: 120_000 }, () => {
  it('sets a password read from standard input, ends the sessions and clears the sign-in delay', async () => {
    const session = await signIn(PASSWORD);
    expect(session.status).toBe(200);
    const cookie = session.headers.getSetCookie()[0].split(';')[0];
    for (let i = 0; i < 5; i += 1) expect((await signIn('not-the-password')).status).toBe(401);
    const delayed = await signIn(PASSWORD);
    expect(delayed.body.error_message).toBe('Too many failed sign-ins for this account. Try again in 30 seconds.');

    const result = await cli(setPassword('--password-stdin'), `${NEW_PASSWORD}\n`);
    expect(result).toEqual({
      code: 0,
      stdout: `password of night.captain (user ${userId}) set: their sessions are ended and sign-in delays cleared\n`,
      stderr: '',
    });
    expect((await server.request('GET', '/app/session', { headers: { cookie } })).status).toBe(401);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toMatch(/^API client cli updated user .*\(password changed\)\.$/);
    expect((await signIn(NEW_PASSWORD)).status).toBe(200);
    expect((await signIn(PASSWORD)).status).toBe(401);
  });

  it('prints JSON with --json', async () => {
    const result = await cli(setPassword('--password-stdin', '--json'), 'another-long-passphrase');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      organization_id: org.orgId,
      user_id: userId,
      username: 'night.captain',
    });
    expect((await signIn('another-long-passphrase')).status).toBe(200);
  });

  it('refuses a short or common password, an unknown user, and a missing password, changing nothing', async () => {
    const short = await cli(setPassword('--password-stdin'), 'not-so-long\n');
    expect(short).toEqual({ code: 1, stdout: '', stderr: 'error: The password must be at least 12 characters.\n' });
    const common = await cli(setPassword('--password-stdin'), 'administrator\n');
    expect(common.stderr).toBe('error: The password is one of the most commonly used passwords; choose another.\n');
    const unknown = await cli(
      ['user', 'set-password', '--org', String(org.orgId), '--username', 'ghost', '--password-stdin'],
      `${NEW_PASSWORD}\n`,
    );
    expect(unknown).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: organization ${org.orgId} has no user named "ghost".\n`,
    });
    const notTerminal = await cli(setPassword());
    expect(notTerminal.stderr).toBe(
      'error: the password is asked for on a terminal; give --password-stdin to read it from the input.\n',
    );
    expect((await signIn('another-long-passphrase')).status).toBe(200);
  });
});
