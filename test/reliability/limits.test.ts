import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';
import { loadOperations, describeOperation, type JsonSchema } from './openapi.js';

/**
 * Bounds on what one client can make the server do: requests per minute per credential and per
 * address on the token endpoint (429 with Retry-After and RateLimit headers), string lengths,
 * page sizes and the time a connection may take to send its request.
 */

const PER_CREDENTIAL = 12;
const TOKEN_PER_ADDRESS = 4;
const REQUEST_TIMEOUT_MS = 1_000;

let server: TestServer;
let limited: TestOrg;
let other: TestOrg;

beforeAll(async () => {
  server = await startServer({
    rateLimitPerMinute: PER_CREDENTIAL,
    tokenRateLimitPerMinute: TOKEN_PER_ADDRESS,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  });
  // two of the address's token requests
  limited = await server.newOrg();
  other = await server.newOrg();
});
afterAll(() => server?.close());

const tooManyRequests = {
  status: 429,
  error: 'too_many_requests',
  error_message: expect.stringMatching(/^Too many requests\. Retry in .+\.$/),
};

describe('rate limit per credential on /v1', () => {
  it('answers with RateLimit headers, then 429 with Retry-After once the budget is spent', async () => {
    for (let i = 1; i <= PER_CREDENTIAL; i += 1) {
      const response = await limited.get('/users');
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-limit')).toBe(String(PER_CREDENTIAL));
      expect(response.headers.get('ratelimit-remaining')).toBe(String(PER_CREDENTIAL - i));
      expect(Number(response.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    const refused = await limited.get('/users');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(tooManyRequests);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
  });

  it('counts every route of the credential together and refuses writes too, writing nothing', async () => {
    const refused = await limited.put('/users', {
      username: 'over_limit',
      first_name: 'A',
      last_name: 'B',
      mail: 'a@example.com',
      password: 'secret-password',
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(tooManyRequests);
    const log = await server.app.db
      .selectFrom('user_account')
      .select('id')
      .where('username', '=', 'over_limit')
      .execute();
    expect(log).toEqual([]);
  });

  it('does not count against another credential', async () => {
    const response = await other.get('/users');
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-remaining')).toBe(String(PER_CREDENTIAL - 1));
  });

  it('leaves the service routes unlimited', async () => {
    for (let i = 0; i <= PER_CREDENTIAL; i += 1) expect((await server.request('GET', '/healthz')).status).toBe(200);
  });
});

describe('rate limit per address on POST /oauth/access_token', () => {
  it('allows the budget of the address, then answers 429 even to valid credentials', async () => {
    const body = { grant_type: 'client_credentials', client_id: other.clientId, client_secret: other.clientSecret };
    const remaining = TOKEN_PER_ADDRESS - 2;
    for (let i = 0; i < remaining; i += 1) {
      const response = await server.request('POST', '/oauth/access_token', { form: true, body });
      expect(response.status).toBe(200);
    }
    const refused = await server.request('POST', '/oauth/access_token', { form: true, body });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(tooManyRequests);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-limit')).toBe(String(TOKEN_PER_ADDRESS));
  });
});

describe('string length', () => {
  it('refuses a name longer than its maximum with 422', async () => {
    const response = await other.put('/users', {
      username: 'long_name',
      first_name: 'x'.repeat(256),
      last_name: 'B',
      mail: 'l@example.com',
      password: 'secret-password',
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: ['The first name may not be greater than 255 characters.'],
    });
  });
});

/** Where a schema takes a number without bounds that every database column holds (a 32-bit integer; a finite number). */
function unboundedNumbers(schema: JsonSchema | undefined, at: string): string[] {
  if (!schema) return [];
  // a union states its types beside its branches (NullableInput): the branches hold the bounds
  const types = schema.anyOf || schema.oneOf ? [] : ([] as string[]).concat(schema.type ?? []);
  const found: string[] = [];
  const bounded =
    (schema.minimum ?? schema.exclusiveMinimum) !== undefined &&
    (schema.maximum ?? schema.exclusiveMaximum) !== undefined;
  const fitsColumn =
    (schema.minimum ?? schema.exclusiveMinimum ?? 0) >= -2_147_483_648 &&
    (schema.maximum ?? schema.exclusiveMaximum ?? 0) <= 2_147_483_647;
  const fixed = schema.const !== undefined || schema.enum !== undefined;
  if (!fixed && types.includes('integer') && !(bounded && fitsColumn)) found.push(at);
  else if (!fixed && types.includes('number') && !bounded) found.push(at);
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    found.push(...unboundedNumbers(property, `${at}.${name}`));
  found.push(...unboundedNumbers(schema.items, `${at}[]`));
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    found.push(...unboundedNumbers(branch, at));
  return found;
}

describe('numbers', () => {
  it('bounds every number a request may carry, so none overflows a column (a 4xx, not a 500)', async () => {
    const unbounded = (await loadOperations(server)).flatMap((op) => [
      ...unboundedNumbers(op.body, `${describeOperation(op)} body`),
      ...[...op.pathParams, ...op.queryParams].flatMap((p) =>
        unboundedNumbers(p.schema, `${describeOperation(op)} ${p.in} ${p.name}`),
      ),
    ]);
    expect(unbounded).toEqual([]);
  });

  it('answers 422 to an integer beyond a column (found by the fuzzer on PostgreSQL: a 500)', async () => {
    const response = await limited.post('/user_fields', { label: 'Badge', position: 1.7976931348623151e308 });
    expect(response.status).toBe(422);
    expect(response.body.error).toBe('invalid_params');
  });
});

describe('page size', () => {
  it('refuses a page larger than the maximum', async () => {
    const response = await other.get('/logs', { query: { limit: 201 } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: ['The limit parameter may not be greater than 200.'],
    });
  });

  it('accepts the maximum', async () => {
    const response = await other.get('/logs', { query: { limit: 200 } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(expect.objectContaining({ data: expect.any(Array) }));
  });
});

describe('request time', () => {
  it('closes a connection that does not finish sending its request in time', async () => {
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    const started = Date.now();
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
    const answer = await new Promise<string>((resolve) => {
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', () => resolve(received));
    });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(elapsed).toBeLessThan(REQUEST_TIMEOUT_MS + 5_000);
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
  });
});

describe('TRUST_PROXY and the token endpoint limit', () => {
  const TOKEN_LIMIT = 2;
  const tokenRequest = (target: TestServer, forwardedFor: string) =>
    target.request('POST', '/oauth/access_token', {
      form: true,
      body: { grant_type: 'client_credentials', client_id: 'cp_nobody', client_secret: 'wrong' },
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('by default ignores X-Forwarded-For: a forged address does not get a fresh budget', async () => {
    const direct = await startServer({ tokenRateLimitPerMinute: TOKEN_LIMIT }); // TRUST_PROXY unset
    try {
      for (let i = 0; i < TOKEN_LIMIT; i += 1)
        expect((await tokenRequest(direct, `203.0.113.${i + 1}`)).status).toBe(401);
      const forged = await tokenRequest(direct, '198.51.100.77');
      expect(forged.status).toBe(429);
      expect(forged.body).toEqual(tooManyRequests);
    } finally {
      await direct.close();
    }
  });

  it('counts per forwarded client address when the proxy (here the loopback) is trusted', async () => {
    const proxied = await startServer({ tokenRateLimitPerMinute: TOKEN_LIMIT, trustProxy: ['127.0.0.1'] });
    try {
      for (let i = 0; i < TOKEN_LIMIT; i += 1) expect((await tokenRequest(proxied, '203.0.113.1')).status).toBe(401);
      expect((await tokenRequest(proxied, '203.0.113.1')).status).toBe(429);
      expect((await tokenRequest(proxied, '203.0.113.2')).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  it('reads TRUST_PROXY as off, true, a hop count or a list of addresses and CIDRs', () => {
    const read = (value: string | undefined) =>
      loadConfig({ CREWPLAN_DATA_DIR: server.config.dataDir, TRUST_PROXY: value }).trustProxy;
    expect(read(undefined)).toBe(false);
    expect(read('false')).toBe(false);
    expect(read('true')).toBe(true);
    expect(read('2')).toBe(2);
    expect(read('10.0.0.1, 192.168.0.0/16,::1,loopback')).toEqual(['10.0.0.1', '192.168.0.0/16', '::1', 'loopback']);
    expect(() => read('proxy.example.org')).toThrow(/TRUST_PROXY/);
    expect(() => read('10.0.0.0/33')).toThrow(/TRUST_PROXY/);
  });

  it('trusts the given number of hops nearest the server', async () => {
    const proxied = await startServer({ tokenRateLimitPerMinute: 1, trustProxy: 1 });
    try {
      expect((await tokenRequest(proxied, '198.51.100.1, 203.0.113.1')).status).toBe(401);
      expect((await tokenRequest(proxied, '198.51.100.2, 203.0.113.1')).status).toBe(429);
      expect((await tokenRequest(proxied, '198.51.100.1, 203.0.113.2')).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });
});
