import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createCredential, revokeCredential, type IssuedCredential } from '../../src/core/auth/credentials.js';
import { createOrganization } from '../../src/resources/organizations/repository.js';
import { scratchDatabase, type ScratchDatabase } from './databases.js';

/**
 * Secrets: revocation holds from the very next request, the database keeps only keyed hashes,
 * and no secret, token or password reaches a log line even at trace level. This file starts its
 * own server (not test/helpers/server.ts) because it needs the server's log output.
 */

const PASSWORD = 'correct-horse-battery-staple';

let database: ScratchDatabase;
let config: Readonly<Config>;
let app: FastifyInstance;
let baseUrl: string;
const logLines: string[] = [];

beforeAll(async () => {
  database = await scratchDatabase();
  config = loadConfig(database.env, {
    secretKey: Buffer.from('secrets-test-key'),
    rateLimitPerMinute: 0,
    tokenRateLimitPerMinute: 0,
    pgPoolSize: 3,
  });
  app = await buildApp(config, {
    logger: { level: 'trace', stream: { write: (line: string) => logLines.push(line) } },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await app?.close();
  await database?.cleanup();
});

async function call(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; form?: boolean; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = options.form ? 'application/x-www-form-urlencoded' : 'application/json';
    body = options.form
      ? new URLSearchParams(options.body as Record<string, string>).toString()
      : JSON.stringify(options.body);
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : undefined };
}

async function newClient(): Promise<IssuedCredential & { token: string }> {
  const orgId = await createOrganization(app.db, { name: 'Secrets org', timezone: 'America/Chicago' });
  const credential = await createCredential(app.db, config.secretKey, orgId);
  const response = await call('POST', '/oauth/access_token', {
    form: true,
    body: {
      grant_type: 'client_credentials',
      client_id: credential.client_id,
      client_secret: credential.client_secret,
    },
  });
  expect(response.status).toBe(200);
  return { ...credential, token: response.body!.access_token as string };
}

describe('revoking a credential (as the CLI does)', () => {
  it('makes its token 401 on the very next request and refuses new tokens', async () => {
    const client = await newClient();
    expect((await call('GET', '/v1/users', { token: client.token })).status).toBe(200);

    expect(await revokeCredential(app.db, client.client_id)).toBe(true);

    const after = await call('GET', '/v1/users', { token: client.token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ status: 401, error: 'unauthorized', error_message: 'The access token is not valid.' });
    const token = await call('POST', '/oauth/access_token', {
      form: true,
      body: { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret },
    });
    expect(token.status).toBe(401);
    expect(token.body).toEqual({
      status: 401,
      error: 'invalid_client',
      error_message: 'Client authentication failed.',
      error_description: 'Client authentication failed.',
    });
  });

  it('leaves the other credentials working', async () => {
    const [kept, revoked] = [await newClient(), await newClient()];
    await revokeCredential(app.db, revoked.client_id);
    expect((await call('GET', '/v1/users', { token: kept.token })).status).toBe(200);
  });
});

describe('what the database stores', () => {
  it('keeps keyed hashes of client secrets and tokens, and Argon2id hashes of passwords', async () => {
    const client = await newClient();
    const created = await call('PUT', '/v1/users', {
      token: client.token,
      body: { username: 'hashme', first_name: 'Hash', last_name: 'Me', mail: 'hash@example.com', password: PASSWORD },
    });
    expect(created.status).toBe(201);
    const credential = await app.db
      .selectFrom('api_credential')
      .select('secret_hash')
      .where('client_id', '=', client.client_id)
      .executeTakeFirstOrThrow();
    expect(credential.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(credential.secret_hash).not.toContain(client.client_secret);
    const tokens = await app.db.selectFrom('access_token').select('token_hash').execute();
    expect(tokens.every((t) => /^[0-9a-f]{64}$/.test(t.token_hash) && t.token_hash !== client.token)).toBe(true);
    const user = await app.db
      .selectFrom('user_account')
      .select('password_hash')
      .where('username', '=', 'hashme')
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[\w+/]+\$[\w+/]+$/);
    expect(client.client_secret).toMatch(/^cps_[\w-]{43}$/);
    expect(client.token).toMatch(/^cpt_[\w-]{43}$/);
  });
});

describe('the server log', () => {
  it('never contains a client secret, an access token or a password', async () => {
    logLines.length = 0;
    const client = await newClient();
    const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64');
    await call('POST', '/oauth/access_token', {
      form: true,
      body: { grant_type: 'client_credentials' },
      headers: { authorization: `Basic ${basic}` },
    });
    await call('POST', '/oauth/access_token', {
      body: {
        grant_type: 'client_credentials',
        client_id: client.client_id,
        client_secret: `${client.client_secret}x`,
      },
    });
    await call('GET', '/v1/users', { token: client.token });
    await call('GET', `/v1/users?access_token=${client.token}`, { token: client.token });
    await call('PUT', '/v1/users', {
      token: client.token,
      body: { username: 'logme', first_name: 'Log', last_name: 'Me', mail: 'log@example.com', password: PASSWORD },
    });
    await call('PUT', '/v1/users', {
      token: client.token,
      body: { username: 'logme2', first_name: 7, password: PASSWORD },
    });
    await call('GET', '/v1/users', { token: `${client.token}tampered` });
    await revokeCredential(app.db, client.client_id);
    await call('GET', '/v1/users', { token: client.token });

    const output = logLines.join('');
    expect(logLines.length).toBeGreaterThanOrEqual(9);
    // one line per request, when it completes, with the method and the (redacted) URL
    expect(output).not.toContain('incoming request');
    const completed = logLines
      .map((line) => JSON.parse(line) as { msg: string; method?: string; url?: string; statusCode?: number })
      .filter((l) => l.msg === 'request completed');
    expect(completed.length).toBeGreaterThanOrEqual(9);
    expect(completed.every((l) => l.method && l.url && l.statusCode)).toBe(true);
    for (const secret of [client.client_secret, client.token, basic, PASSWORD]) expect(output).not.toContain(secret);
    expect(output).not.toMatch(/Bearer cpt_|cps_[\w-]{20}/);
    expect(output).toContain('/v1/users?access_token=[redacted]');
  });
});

describe('the system log and the webhook outbox (docs/security.md, "Secrets in logs")', () => {
  it('keep no password, client secret, token, feed token or webhook secret sent in a body', async () => {
    const client = await newClient();
    const { token } = client;
    const webhookSecret = 'whsec_body-given-webhook-secret-123456';
    const apiKey = 'partner-api-key-0123456789';
    const newPassword = 'another-long-password-42';
    const user = await call('PUT', '/v1/users', {
      token,
      body: {
        username: 'logsecret',
        first_name: 'Log',
        last_name: 'Secret',
        mail: 'ls@example.com',
        password: PASSWORD,
        client_secret: client.client_secret,
      },
    });
    expect(user.status).toBe(201);
    const userId = user.body!.id as number;
    const changed = await call('PATCH', `/v1/users/${userId}`, {
      token,
      body: { password: newPassword, first_name: 'Logged', access_token: token },
    });
    expect(changed.status).toBe(200);
    // work types log the request body as sent: undeclared fields, nested ones included
    const workType = await call('POST', '/v1/work_types', {
      token,
      body: {
        label: 'Secretive work',
        password: PASSWORD,
        client_secret: client.client_secret,
        nested: [{ api_key: apiKey, note: `pasted ${token}` }],
      },
    });
    expect(workType.status).toBe(201);
    const webhook = await call('POST', '/v1/webhooks', {
      token,
      body: { url: 'https://example.com/hook', event_types: ['isolation.never'], secret: webhookSecret },
    });
    expect(webhook.status).toBe(201);
    const feed = await call('POST', '/v1/calendar_feeds', { token, body: { user_id: userId, name: 'phone' } });
    expect(feed.status).toBe(201);
    const feedToken = /\/feeds\/(cpf_[\w-]+)\.ics$/.exec(feed.body!.url as string)![1];
    // a token pasted into free text is recognised by its format
    const rotation = await call('POST', '/v1/rotations', {
      token,
      body: { name: `Rotation ${token}`, anchor_date: '2026-03-02', pattern: [1, 0] },
    });
    expect(rotation.status).toBe(201);

    const logRows = await app.db
      .selectFrom('system_log')
      .select(['action', 'description', 'changes'])
      .where('organization_id', '=', client.organization_id)
      .orderBy('id')
      .execute();
    const outbox = await app.db
      .selectFrom('outbox_event')
      .select('payload')
      .where('organization_id', '=', client.organization_id)
      .execute();
    const stored = JSON.stringify(logRows) + JSON.stringify(outbox);
    expect(logRows.map((row) => row.action)).toEqual([
      'user.created',
      'user.updated',
      'work_type.created',
      'webhook.created',
      'calendar_feed.created',
      'rotation.created',
    ]);
    for (const secret of [PASSWORD, newPassword, client.client_secret, token, webhookSecret, apiKey, feedToken])
      expect(stored).not.toContain(secret);
    expect(stored).not.toMatch(/cp[stf]_[\w-]{20}|whsec_|scrypt\$|\$argon2/);

    // what is not a secret is still there, and redacted keys say so
    const changes = (action: string) => JSON.parse(logRows.find((row) => row.action === action)!.changes!);
    expect(changes('work_type.created').after).toEqual({
      label: 'Secretive work',
      password: '[redacted]',
      client_secret: '[redacted]',
      nested: [{ api_key: '[redacted]', note: 'pasted [redacted]' }],
    });
    expect(changes('user.updated').after).toMatchObject({ first_name: 'Logged', access_token: '[redacted]' });
    expect(logRows.find((row) => row.action === 'rotation.created')!.description).toContain(
      'created rotation Rotation [redacted] (2-day cycle',
    );
    const payload = JSON.parse(outbox.find((row) => row.payload.includes('work_type.created'))!.payload);
    expect(payload.data.after.client_secret).toBe('[redacted]');
  });
});
