import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { scratchDatabase, type ScratchDatabase } from './reliability/databases.js';
import { freePort, START_TIMEOUT_MS, startServerProcess, stopAll } from './reliability/server-processes.js';
import { CLI_ENTRY, SERVER_ENTRY } from './helpers/entries.js';

/**
 * The start-up of `npm start` (src/server.ts) and of `npm run cli` (src/cli/main.ts) as an operator meets it,
 * in processes of their own: what they refuse and how they say it, and the first log line.
 */

const dir = mkdtempSync(join(tmpdir(), 'crewplan-startup-'));
const FORMS =
  'use a path to a SQLite file (ending in .sqlite, .sqlite3 or .db), sqlite:PATH, file:PATH, or ' +
  'postgres://USER:PASSWORD@HOST:PORT/DATABASE (postgresql:// too).';

let database: ScratchDatabase | undefined;

afterEach(async () => {
  await stopAll();
  await database?.cleanup();
  database = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The entry `entry` with exactly these variables (and PATH), until it exits; killed after a minute. */
function runEntry(entry: string, env: Record<string, string>, args: string[] = []) {
  return new Promise<Exit>((resolve) => {
    const child = spawn(process.execPath, [entry, ...args], {
      env: { PATH: process.env.PATH ?? '', CREWPLAN_SECRET_KEY: 'startup-test-key', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const server = (env: Record<string, string>, args: string[] = []) =>
  runEntry(SERVER_ENTRY, { HOST: '127.0.0.1', PORT: '1', ...env }, args);
const cli = (env: Record<string, string>, ...args: string[]) => runEntry(CLI_ENTRY, env, args);

/** One refusal: exit code 1, one line on stderr, no stack, nothing on stdout. */
function expectRefused(exit: Exit, line: string) {
  expect(exit).toEqual({ code: 1, stdout: expect.any(String), stderr: `${line}\n` });
  expect(exit.stderr).not.toMatch(/\n\s+at /);
}

describe('DATABASE_URL', () => {
  it('a typo in the scheme is refused, naming the value and the forms, and creates nothing', async () => {
    const env = { CREWPLAN_DATA_DIR: join(dir, 'typo'), DATABASE_URL: 'postgress://127.0.0.1:1/x' };
    const message = `DATABASE_URL "postgress://127.0.0.1:1/x" is not a form crewplan reads: ${FORMS}`;
    expectRefused(await server(env), `crewplan could not start: ${message}`);
    expectRefused(await cli(env, 'migrate'), `error: ${message}`);
    expect(existsSync(join(dir, 'typo'))).toBe(false);
    expect(existsSync('postgress:')).toBe(false);
  }, 120_000);

  it('a path that names no SQLite file is refused, its password masked', async () => {
    const exit = await server({ DATABASE_URL: 'mysql://crew:hunter2@db/crew' });
    expectRefused(
      exit,
      `crewplan could not start: DATABASE_URL "mysql://crew:***@db/crew" is not a form crewplan reads: ${FORMS}`,
    );
  }, 60_000);

  it('a SQLite file whose folder does not exist is refused, and created with --create', async () => {
    const file = join(dir, 'missing', 'deeper', 'crew.sqlite');
    const env = { CREWPLAN_DATA_DIR: dir, DATABASE_URL: file };
    const advice =
      `The folder of the SQLite database ${file} does not exist: create ${join(dir, 'missing', 'deeper')}, ` +
      'correct DATABASE_URL (or CREWPLAN_DATA_DIR), or pass --create to have it created.';
    expectRefused(await server(env), `crewplan could not start: ${advice}`);
    expectRefused(await cli(env, 'migrate'), `error: ${advice}`);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
    const created = await cli(env, '--create', 'migrate');
    expect(created).toMatchObject({ code: 0, stdout: expect.stringContaining(`SQLite ${file}`) });
    expect(existsSync(file)).toBe(true);
  }, 120_000);

  it('a data directory that does not exist is refused unless --create is given', async () => {
    const dataDir = join(dir, 'no-such-dir');
    const env = { CREWPLAN_DATA_DIR: dataDir };
    expectRefused(
      await server(env),
      `crewplan could not start: The data directory ${dataDir} (CREWPLAN_DATA_DIR) does not exist: create it, ` +
        'correct CREWPLAN_DATA_DIR, or pass --create to have it created.',
    );
    expect(existsSync(dataDir)).toBe(false);
    const created = await cli(env, 'org', 'create', '--name', 'X', '--timezone', 'UTC', '--create');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(
      `database: SQLite ${join(dataDir, 'crewplan.sqlite')} (new: created by this command)`,
    );
  }, 120_000);
});

describe('start-up failures: a sentence naming what failed, where, and what to do', () => {
  it('a directory given as the database', async () => {
    const folder = join(dir, 'folder.sqlite');
    mkdirSync(folder, { recursive: true });
    expectRefused(
      await server({ DATABASE_URL: folder }),
      `crewplan could not start: The SQLite database ${folder} is a directory: set DATABASE_URL to a file in it, ` +
        `e.g. ${join(folder, 'crewplan.sqlite')}.`,
    );
    const plain = join(dir, 'plain-folder');
    mkdirSync(plain, { recursive: true });
    expectRefused(
      await server({ DATABASE_URL: plain }),
      `crewplan could not start: DATABASE_URL names a directory, ${plain}: name a SQLite file in it, e.g. ` +
        `${join(plain, 'crewplan.sqlite')}.`,
    );
  }, 60_000);

  it('an unreachable PostgreSQL', async () => {
    const port = await freePort();
    const url = `postgres://crew:hunter2@127.0.0.1:${port}/crew`;
    const message =
      `PostgreSQL at 127.0.0.1:${port} cannot be reached (ECONNREFUSED): start it, or correct the host and port ` +
      `in DATABASE_URL (PostgreSQL postgres://crew:***@127.0.0.1:${port}/crew).`;
    const exit = await server({ CREWPLAN_DATA_DIR: dir, DATABASE_URL: url, LOG_LEVEL: 'warn' });
    expectRefused(exit, `crewplan could not start: ${message}`);
    expectRefused(await cli({ CREWPLAN_DATA_DIR: dir, DATABASE_URL: url }, 'migrate'), `error: ${message}`);
  }, 120_000);

  it('a data directory that is a file', async () => {
    const file = join(dir, 'data-file');
    writeFileSync(file, 'not a directory');
    expectRefused(
      await server({ CREWPLAN_DATA_DIR: file }),
      `crewplan could not start: The data directory ${file} (CREWPLAN_DATA_DIR) is a file, not a directory: move ` +
        'the file away or set CREWPLAN_DATA_DIR to a directory.',
    );
  }, 60_000);

  it('LOG_LEVEL=debug adds the stack', async () => {
    const port = await freePort();
    const exit = await server({
      CREWPLAN_DATA_DIR: dir,
      DATABASE_URL: `postgres://crew@127.0.0.1:${port}/crew`,
      LOG_LEVEL: 'debug',
    });
    expect(exit.code).toBe(1);
    expect(exit.stderr).toMatch(/^crewplan could not start: PostgreSQL at 127\.0\.0\.1:\d+ cannot be reached/);
    expect(exit.stderr).toMatch(/\n\s+at /);
  }, 60_000);
});

describe('a server that starts', () => {
  it('names database (password masked), data dir, URL and version in its first log line', async () => {
    database = await scratchDatabase();
    const port = await freePort();
    const withPassword = database.databaseUrl?.replace('://postgres@', '://postgres:pg-secret@');
    const child = spawn(process.execPath, [SERVER_ENTRY], {
      env: {
        ...process.env,
        ...database.env,
        ...(withPassword ? { DATABASE_URL: withPassword } : {}),
        CREWPLAN_SECRET_KEY: 'startup-test-key',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    try {
      await expect.poll(() => stdout.includes('\n'), { timeout: START_TIMEOUT_MS }).toBe(true);
      const first = JSON.parse(stdout.split('\n')[0]!);
      const shown = database.databaseUrl
        ? `PostgreSQL ${database.databaseUrl.replace('://postgres@', '://postgres:***@')} (schema ${database.pgSchema})`
        : `SQLite ${database.sqlitePath}`;
      const url = `http://127.0.0.1:${port}`;
      expect(first).toMatchObject({
        level: 30,
        database: shown,
        data_dir: database.dataDir,
        url,
        version: '0.1.0',
        msg: `crewplan 0.1.0: database ${shown}, data dir ${database.dataDir}, listening on ${url}`,
      });
      expect(stdout).not.toContain('pg-secret');
    } finally {
      child.kill('SIGTERM');
    }
  }, 200_000);

  it('GET /readyz tells the operator (METRICS_TOKEN) what it serves; others get its status alone', async () => {
    database = await scratchDatabase();
    const { url } = await startServerProcess(database, { METRICS_TOKEN: 'operator-token' });
    const bare = await fetch(`${url}/readyz`);
    expect([bare.status, await bare.json()]).toEqual([200, { status: 'ok' }]);
    const wrong = await fetch(`${url}/readyz`, { headers: { authorization: 'Bearer not-it' } });
    expect([wrong.status, await wrong.json()]).toEqual([200, { status: 'ok' }]);
    const operator = await fetch(`${url}/readyz`, { headers: { authorization: 'Bearer operator-token' } });
    expect(operator.status).toBe(200);
    expect(await operator.json()).toEqual({
      status: 'ok',
      database: database.databaseUrl
        ? `PostgreSQL ${database.databaseUrl} (schema ${database.pgSchema})`
        : `SQLite ${database.sqlitePath}`,
      data_dir: database.dataDir,
      url,
      version: '0.1.0',
    });
  }, 200_000);
});
