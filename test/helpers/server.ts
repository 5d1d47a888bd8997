import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createCredential } from '../../src/core/auth/credentials.js';
import { createOrganization } from '../../src/resources/organizations/repository.js';

/** The PostgreSQL database the tests run against (TEST_DATABASE_URL), or undefined for SQLite. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL;

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Send the body as application/x-www-form-urlencoded. */
  form?: boolean;
  /** Override the bearer token (null: no Authorization header). */
  token?: string | null;
}

export interface TestServer {
  url: string;
  app: FastifyInstance;
  config: Readonly<Config>;
  /** Every statement run through Kysely since start. */
  queryCount(): number;
  newOrg(options?: { name?: string; timezone?: string }): Promise<TestOrg>;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export interface TestOrg {
  orgId: number;
  timezone: string;
  clientId: string;
  clientSecret: string;
  token: string;
  get<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  del<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Any method with this organization's token. */
  request<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Creates a user through PUT /users and returns its id. */
  createUser(overrides?: Record<string, unknown>): Promise<number>;
  /** Signs a user (id or username) in to the web app: their calls the way the board makes them. */
  signIn(user: number | string, password?: string): Promise<MemberSession>;
}

/** A web app user's calls: the session cookie and the session header, no bearer token. */
export interface MemberSession {
  headers: Record<string, string>;
  get<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  del<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  request<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
}

let userCounter = 0;

/** Paths outside the /v1 prefix; every other relative path is taken as a /v1 path. */
const UNVERSIONED = /^\/(oauth|v1|healthz|readyz|docs|metrics|app)(\/|$|\?)/;

async function createPgSchema(url: string): Promise<string> {
  const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  return schema;
}

async function dropPgSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
}

/**
 * Starts the real server on a free port against a database of its own: a fresh SQLite file, or
 * (with TEST_DATABASE_URL=postgres://…) a fresh PostgreSQL schema that is dropped on close.
 */
export async function startServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'crewplan-test-'));
  const pgUrl = testDatabaseUrl;
  const pgSchema = pgUrl ? await createPgSchema(pgUrl) : undefined;
  // the mail and webhook worker variables a test stubs (vi.stubEnv) reach the server's config
  const workerEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => /^(SMTP|WEBHOOK|SMS)_/.test(name)),
  );
  const config = loadConfig(
    { ...workerEnv, CREWPLAN_DATA_DIR: dir },
    {
      databaseUrl: pgUrl,
      pgSchema,
      pgPoolSize: 5,
      sqlitePath: join(dir, 'test.sqlite'),
      secretKey: Buffer.from('test-secret-key'),
      logLevel: 'silent',
      rateLimitPerMinute: 0,
      tokenRateLimitPerMinute: 0,
      publicRateLimitPerMinute: 0,
      // tests drive the callback runner themselves, with an injected clock
      callbackRunnerPollMs: 0,
      dataDir: dir,
      ...overrides,
    },
  );
  const app = await buildApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;

  async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const target = new URL(UNVERSIONED.test(path) || !path.startsWith('/') ? path : `/v1${path}`, url);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) target.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    let body: string | undefined;
    if (options.body !== undefined) {
      if (options.form) {
        headers['content-type'] ??= 'application/x-www-form-urlencoded';
        body = new URLSearchParams(options.body as Record<string, string>).toString();
      } else {
        headers['content-type'] ??= 'application/json';
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      }
    }
    if (options.token) headers.authorization ??= `Bearer ${options.token}`;
    const response = await fetch(target, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: leave the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers, text };
  }

  async function newOrg(options: { name?: string; timezone?: string } = {}): Promise<TestOrg> {
    const timezone = options.timezone ?? 'America/Chicago';
    const orgId = await createOrganization(app.db, {
      name: options.name ?? `Org ${randomBytes(3).toString('hex')}`,
      timezone,
    });
    const credential = await createCredential(app.db, config.secretKey, orgId);
    const tokenResponse = await request<{ access_token: string }>('POST', '/oauth/access_token', {
      body: {
        grant_type: 'client_credentials',
        client_id: credential.client_id,
        client_secret: credential.client_secret,
      },
      form: true,
    });
    if (tokenResponse.status !== 200) throw new Error(`token request failed: ${tokenResponse.text}`);
    const token = tokenResponse.body.access_token;
    const call =
      (method: string) =>
      <T = any>(path: string, body?: unknown, opts: RequestOptions = {}) =>
        request<T>(method, path, { token, ...opts, body: body ?? opts.body });
    const org: TestOrg = {
      orgId,
      timezone,
      clientId: credential.client_id,
      clientSecret: credential.client_secret,
      token,
      get: (path, opts = {}) => request('GET', path, { token, ...opts }),
      post: call('POST'),
      put: call('PUT'),
      patch: call('PATCH'),
      del: call('DELETE'),
      request: (method, path, body, opts = {}) => request(method, path, { token, ...opts, body: body ?? opts.body }),
      async createUser(overrides = {}) {
        userCounter += 1;
        const username = `user${userCounter}_${randomBytes(3).toString('hex')}`;
        const response = await org.put('/users', {
          username,
          first_name: `First${userCounter}`,
          last_name: `Last${userCounter}`,
          mail: `${username}@example.com`,
          password: 'secret-password',
          ...overrides,
        });
        if (response.status !== 201) throw new Error(`user creation failed: ${response.text}`);
        return response.body.user_id as number;
      },
      async signIn(user, password = 'secret-password') {
        const username = typeof user === 'string' ? user : (await org.get(`/users/${user}`)).body.username;
        const signedIn = await request('POST', '/app/session', {
          body: { organization_id: orgId, username, password },
          headers: { 'x-crewplan-session': '1' },
        });
        if (signedIn.status !== 200) throw new Error(`sign-in of ${username} failed: ${signedIn.text}`);
        const headers = {
          cookie: (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!,
          'x-crewplan-session': '1',
        };
        const as = <T = any>(method: string, path: string, body?: unknown, opts: RequestOptions = {}) =>
          request<T>(method, path, {
            ...opts,
            token: null,
            headers: { ...headers, ...opts.headers },
            body: body ?? opts.body,
          });
        return {
          headers,
          get: (path, opts) => as('GET', path, undefined, opts),
          post: (path, body, opts) => as('POST', path, body, opts),
          put: (path, body, opts) => as('PUT', path, body, opts),
          del: (path, body, opts) => as('DELETE', path, body, opts),
          request: as,
        };
      },
    };
    return org;
  }

  return {
    url,
    app,
    config,
    queryCount: () => app.dbHandle.stats.queries,
    newOrg,
    request,
    async close() {
      await app.close();
      if (pgUrl && pgSchema) await dropPgSchema(pgUrl, pgSchema);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A test server with two organizations: `org` for the suite, `other` for the cross-organization checks. */
export async function startWithOrgs(
  overrides: Partial<Config> = {},
): Promise<{ server: TestServer; org: TestOrg; other: TestOrg }> {
  const server = await startServer(overrides);
  return { server, org: await server.newOrg(), other: await server.newOrg() };
}

/**
 * startWithOrgs for a whole test file, at its top level: the server starts as vitest reads the file
 * and closes after the file's last test.
 */
export async function useOrgs(
  overrides: Partial<Config> = {},
): Promise<{ server: TestServer; org: TestOrg; other: TestOrg }> {
  const started = await startWithOrgs(overrides);
  afterAll(() => started.server.close());
  return started;
}
