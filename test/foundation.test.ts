import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeCredential, createCredential } from '../src/core/auth/credentials.js';
import { expectAuthRequired } from './helpers/common.js';
import { startServer, type TestOrg, type TestServer } from './helpers/server.js';

let server: TestServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
});
afterAll(() => server.close());

const tokenBody = {
  access_token: expect.any(String),
  token_type: 'bearer',
  expires: expect.any(Number),
  expires_in: 3600,
};

describe('POST /oauth/access_token', () => {
  it('issues a bearer token for form-encoded client credentials', async () => {
    const response = await server.request('POST', '/oauth/access_token', {
      form: true,
      body: { grant_type: 'client_credentials', client_id: org.clientId, client_secret: org.clientSecret },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(tokenBody);
    expect(response.body.expires).toBeGreaterThan(Date.now() / 1000 + 3500);
    expect(response.body.expires).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3600);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('accepts a JSON body', async () => {
    const response = await server.request('POST', '/oauth/access_token', {
      body: { grant_type: 'client_credentials', client_id: org.clientId, client_secret: org.clientSecret },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(tokenBody);
  });

  it('accepts the form as multipart/form-data (what FormData sends), its fields only', async () => {
    const form = new FormData();
    form.set('grant_type', 'client_credentials');
    form.set('client_id', org.clientId);
    form.set('client_secret', org.clientSecret);
    const response = await fetch(`${server.url}/oauth/access_token`, { method: 'POST', body: form });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(tokenBody);

    const withFile = new FormData();
    withFile.set('grant_type', 'client_credentials');
    withFile.set('file', new Blob(['x']), 'x.txt');
    const refused = await fetch(`${server.url}/oauth/access_token`, { method: 'POST', body: withFile });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await refused.json()).toMatchObject({ status: refused.status, error: expect.any(String) });
  });

  it('accepts client authentication by HTTP Basic (RFC 6749 §2.3.1)', async () => {
    const basic = Buffer.from(`${encodeURIComponent(org.clientId)}:${encodeURIComponent(org.clientSecret)}`).toString(
      'base64',
    );
    const response = await server.request('POST', '/oauth/access_token', {
      form: true,
      body: { grant_type: 'client_credentials' },
      headers: { authorization: `Basic ${basic}` },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(tokenBody);
    const users = await server.request('GET', '/users', { token: response.body.access_token });
    expect(users.status).toBe(200);
  });

  it('rejects a wrong secret with invalid_client', async () => {
    const response = await server.request('POST', '/oauth/access_token', {
      form: true,
      body: { grant_type: 'client_credentials', client_id: org.clientId, client_secret: 'wrong' },
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      status: 401,
      error: 'invalid_client',
      error_message: 'Client authentication failed.',
      error_description: 'Client authentication failed.',
    });
  });

  it('rejects an unknown client id the same way', async () => {
    const response = await server.request('POST', '/oauth/access_token', {
      form: true,
      body: { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'wrong' },
    });
    expect(response.status).toBe(401);
    expect(response.body.error).toBe('invalid_client');
  });

  it('rejects Basic credentials that fail with a Basic challenge', async () => {
    const basic = Buffer.from(`${org.clientId}:nope`).toString('base64');
    const response = await server.request('POST', '/oauth/access_token', {
      form: true,
      body: { grant_type: 'client_credentials' },
      headers: { authorization: `Basic ${basic}` },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it('rejects an unsupported grant type', async () => {
    const response = await server.request('POST', '/oauth/access_token', {
      form: true,
      body: { grant_type: 'password', client_id: org.clientId, client_secret: org.clientSecret },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: 400,
      error: 'unsupported_grant_type',
      error_message: 'Only the client_credentials grant type is supported.',
      error_description: 'Only the client_credentials grant type is supported.',
    });
  });

  it('requires grant_type and the client credentials', async () => {
    const noGrant = await server.request('POST', '/oauth/access_token', {
      form: true,
      body: { client_id: org.clientId },
    });
    expect(noGrant.status).toBe(400);
    expect(noGrant.body.error).toBe('invalid_request');
    const noSecret = await server.request('POST', '/oauth/access_token', {
      form: true,
      body: { grant_type: 'client_credentials', client_id: org.clientId },
    });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.error).toBe('invalid_request');
  });
});

describe('bearer authentication on /v1', () => {
  it('answers 401 without a token and with an unknown token', async () => {
    await expectAuthRequired(server, 'GET', '/users');
  });

  it('answers 401 for a malformed Authorization header', async () => {
    for (const header of ['Bearer', 'Token abc', `Basic ${Buffer.from('a:b').toString('base64')}`, 'Bearer a b']) {
      const response = await server.request('GET', '/users', { headers: { authorization: header } });
      expect(response.status, header).toBe(401);
      expect(response.body).toEqual({ status: 401, error: 'unauthorized', error_message: expect.any(String) });
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('answers 401 for an expired token', async () => {
    // a lifetime of a few seconds: an expiry is kept in whole seconds, and the first read must come
    // within it on a busy machine too
    const shortLived = await startServer({ tokenTtlSeconds: 4 });
    try {
      const other = await shortLived.newOrg();
      expect((await other.get('/users')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 4100));
      const response = await other.get('/users');
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        status: 401,
        error: 'unauthorized',
        error_message: 'The access token is not valid.',
      });
    } finally {
      await shortLived.close();
    }
  });

  it('answers 401 at once after the credential is revoked, for tokens already issued', async () => {
    const credential = await createCredential(server.app.db, server.config.secretKey, org.orgId, 'to revoke');
    const token = await server.request('POST', '/oauth/access_token', {
      form: true,
      body: {
        grant_type: 'client_credentials',
        client_id: credential.client_id,
        client_secret: credential.client_secret,
      },
    });
    const accessToken = token.body.access_token as string;
    expect((await server.request('GET', '/users', { token: accessToken })).status).toBe(200);
    expect(await revokeCredential(server.app.db, credential.client_id)).toBe(true);
    const after = await server.request('GET', '/users', { token: accessToken });
    expect(after.status).toBe(401);
    const again = await server.request('POST', '/oauth/access_token', {
      form: true,
      body: {
        grant_type: 'client_credentials',
        client_id: credential.client_id,
        client_secret: credential.client_secret,
      },
    });
    expect(again.status).toBe(401);
    // the organization's other credential still works
    expect((await org.get('/users')).status).toBe(200);
  });

  it('answers concurrent requests each by its own token (lookups arriving together share one read)', async () => {
    const other = await server.newOrg();
    const ownUser = await org.createUser();
    const otherUser = await other.createUser();
    const revoked = await createCredential(server.app.db, server.config.secretKey, org.orgId, 'revoked in the crowd');
    const issued = await server.request('POST', '/oauth/access_token', {
      form: true,
      body: { grant_type: 'client_credentials', client_id: revoked.client_id, client_secret: revoked.client_secret },
    });
    await revokeCredential(server.app.db, revoked.client_id);
    const cases = [
      { token: org.token, path: `/users/${ownUser}`, status: 200 },
      { token: org.token, path: `/users/${otherUser}`, status: 404 },
      { token: other.token, path: `/users/${otherUser}`, status: 200 },
      { token: other.token, path: `/users/${ownUser}`, status: 404 },
      { token: issued.body.access_token as string, path: `/users/${ownUser}`, status: 401 },
      { token: `${org.token}x`, path: `/users/${ownUser}`, status: 401 },
    ];
    const crowd = Array.from({ length: 60 }, (_, i) => cases[i % cases.length]!);
    const answers = await Promise.all(crowd.map(({ token, path }) => server.request('GET', path, { token })));
    expect(answers.map((a) => a.status)).toEqual(crowd.map((c) => c.status));
    answers.forEach((answer, i) => {
      if (crowd[i]!.status === 200)
        expect(String(answer.body.user_id)).toBe(String(crowd[i]!.path.endsWith(`/${ownUser}`) ? ownUser : otherUser));
    });
  });
});

describe('service routes', () => {
  it('GET /healthz and /readyz answer without a token', async () => {
    expect((await server.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await server.request('GET', '/readyz')).body).toEqual({ status: 'ok' });
  });

  it('GET /v1/openapi.json is a valid OpenAPI 3.1 document listing the routes', async () => {
    const response = await server.request('GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(response.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const paths = Object.keys(response.body.paths);
    for (const path of ['/oauth/access_token', '/v1/users', '/v1/users/{user_id}', '/v1/logs'])
      expect(paths).toContain(path);
  });

  it('serves a human docs page at /docs', async () => {
    const response = await server.request('GET', '/docs/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
  });
});
