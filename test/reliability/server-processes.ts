import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { ScratchDatabase } from './databases.js';
import { CLI_ENTRY, SERVER_ENTRY } from '../helpers/entries.js';

/**
 * Server and CLI processes of their own on one scratch database, started as an operator would: the
 * entry of `npm start` (the compiled dist/server.js) and of `npm run cli`. Every child is bounded by a
 * timeout; `stopAll` stops those still running (each suite's afterEach).
 */

export const SECRET_KEY = 'processes-test-secret-key';
/** Generous: on a shared PostgreSQL every new schema's migrations queue behind one advisory lock (Kysely's). */
export const START_TIMEOUT_MS = 180_000;
export const runFile = promisify(execFile);

const children: ChildProcess[] = [];

export interface ServerProcess {
  url: string;
  child: ChildProcess;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export const environment = (db: ScratchDatabase) => ({
  ...process.env,
  ...db.env,
  CREWPLAN_SECRET_KEY: SECRET_KEY,
  LOG_LEVEL: 'error',
});

/** src/server.ts in a process of its own (`env`: more settings); resolves once /readyz answers. */
export async function startServerProcess(
  db: ScratchDatabase,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    env: {
      ...environment(db),
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '0',
      TOKEN_RATE_LIMIT_PER_MINUTE: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited with ${child.exitCode ?? child.signalCode}: ${stderr}`);
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not become ready: ${stderr}`);
}

/** SIGTERM (the server closes cleanly), SIGKILL after 10 s; `signal: 'SIGKILL'` for a crash. */
export async function stop(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all(children.splice(0).map((child) => stop(child)));
}

/** `npm run cli -- org create --json`: the organization's first credential. */
export async function createOrgWithCli(
  db: ScratchDatabase,
): Promise<{ client_id: string; client_secret: string; organization_id: number }> {
  const { stdout } = await runFile(
    process.execPath,
    [CLI_ENTRY, 'org', 'create', '--name', 'Processes', '--timezone', 'America/Chicago', '--json'],
    {
      env: environment(db),
      timeout: START_TIMEOUT_MS,
    },
  );
  return JSON.parse(stdout) as { client_id: string; client_secret: string; organization_id: number };
}

export interface Reply {
  status: number;
  body: any;
}

export type Client = (method: string, path: string, body?: unknown) => Promise<Reply>;

export function client(url: string, token: string): Client {
  return async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const response = await fetch(`${url}/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

export async function accessToken(
  url: string,
  credential: { client_id: string; client_secret: string },
): Promise<string> {
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
