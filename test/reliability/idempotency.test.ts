import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';
import { writeCount } from './openapi.js';

/** `Idempotency-Key` on POST and PUT (extension): a retried create returns the first response. */

let server: TestServer;
let org: TestOrg;
let keyCounter = 0;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
});
afterAll(() => server?.close());

const newKey = () => `key-${Date.now()}-${++keyCounter}`;
const userBody = (username: string) => ({
  username,
  first_name: 'Idem',
  last_name: 'Potent',
  mail: `${username}@example.com`,
  password: 'secret-password',
});
const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

async function usersNamed(target: TestOrg, username: string): Promise<number> {
  const users = await target.get('/users');
  return users.body.filter((u: { username: string }) => u.username === username).length;
}

describe('the replay store', () => {
  it('keeps a secret shown once unreadable in the database, and still replays it', async () => {
    const key = newKey();
    const first = await org.post(
      '/webhooks',
      { url: 'https://public.example/hook', event_types: ['isolation.never'] },
      withKey(key),
    );
    expect(first.status, first.text).toBe(201);
    const secret = first.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const row = await server.app.db
      .selectFrom('idempotency_key')
      .select('response_body')
      .where('organization_id', '=', org.orgId)
      .where('idempotency_key', '=', key)
      .executeTakeFirstOrThrow();
    expect(row.response_body).not.toContain(secret);
    expect(row.response_body).not.toContain('whsec_');
    const retry = await org.post(
      '/webhooks',
      { url: 'https://public.example/hook', event_types: ['isolation.never'] },
      withKey(key),
    );
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.secret).toBe(secret);
  });
});

describe('PUT /users with an Idempotency-Key', () => {
  it('replays the first response to a retry and creates the user once', async () => {
    const key = newKey();
    const first = await org.put('/users', userBody('idem_one'), withKey(key));
    expect(first.status).toBe(201);
    expect(first.body).toEqual(
      expect.objectContaining({ success: true, code: 201, status: 'created', id: expect.any(Number) }),
    );
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const writes = await writeCount(server);

    const retry = await org.put('/users', userBody('idem_one'), withKey(key));
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await writeCount(server)).toBe(writes);
    expect(await usersNamed(org, 'idem_one')).toBe(1);
  });

  it('refuses the same key with a different body with 422', async () => {
    const key = newKey();
    expect((await org.put('/users', userBody('idem_two'), withKey(key))).status).toBe(201);
    const other = await org.put('/users', userBody('idem_three'), withKey(key));
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: ['The Idempotency-Key has already been used with a different request.'],
    });
    expect(await usersNamed(org, 'idem_three')).toBe(0);
  });

  it('does not keep a refused request, so a corrected retry with the same key runs', async () => {
    const key = newKey();
    const refused = await org.put('/users', { ...userBody('idem_fix'), date_of_hire: '2026-02-30' }, withKey(key));
    expect(refused.status).toBe(422);
    const refusedAgain = await org.put('/users', { ...userBody('idem_fix'), mail: 'not-a-mail' }, withKey(key));
    expect(refusedAgain.status).toBe(422);
    expect(refusedAgain.body.error_message).not.toEqual([
      'The Idempotency-Key has already been used with a different request.',
    ]);
    const corrected = await org.put('/users', userBody('idem_fix'), withKey(key));
    expect(corrected.status).toBe(201);
  });

  it('scopes keys per organization', async () => {
    const key = newKey();
    const other = await server.newOrg();
    const mine = await org.put('/users', userBody('idem_scope'), withKey(key));
    const theirs = await other.put('/users', userBody('idem_scope'), withKey(key));
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(await usersNamed(other, 'idem_scope')).toBe(1);
  });

  it('forgets a key after 24 hours', async () => {
    const key = newKey();
    expect((await org.put('/users', userBody('idem_old'), withKey(key))).status).toBe(201);
    const dayAndAMinuteAgo = new Date(Date.now() - 24 * 3600_000 - 60_000).toISOString();
    await server.app.db
      .updateTable('idempotency_key')
      .set({ created_at: dayAndAMinuteAgo })
      .where('idempotency_key', '=', key)
      .execute();
    const later = await org.put('/users', userBody('idem_old'), withKey(key));
    expect(later.status).toBe(422);
    expect(later.body.error_message).toEqual(['The username has already been taken.']);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const key = newKey();
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => org.put('/users', userBody('idem_parallel'), withKey(key))),
    );
    const created = responses.filter((r) => r.status === 201);
    const inProgress = responses.filter((r) => r.status === 409);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    expect(created.length + inProgress.length).toBe(10);
    for (const response of inProgress) {
      expect(response.body).toEqual({
        status: 409,
        error: 'conflict',
        error_message: 'A request with the same Idempotency-Key is still being processed.',
      });
    }
    expect(await usersNamed(org, 'idem_parallel')).toBe(1);
  });

  it('refuses a malformed key with 400', async () => {
    const response = await org.put('/users', userBody('idem_bad'), withKey('x'.repeat(256)));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: 400,
      error: 'bad_request',
      error_message: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
    });
    expect(await usersNamed(org, 'idem_bad')).toBe(0);
  });
});

describe('POST with an Idempotency-Key', () => {
  it('replays a create of another resource (POST /time_off_types)', async () => {
    const key = newKey();
    const first = await org.post('/time_off_types', { label: 'Idempotent leave' }, withKey(key));
    expect(first.status).toBe(201);
    const retry = await org.post('/time_off_types', { label: 'Idempotent leave' }, withKey(key));
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    const types = await org.get('/time_off_types');
    expect(JSON.stringify(types.body).split('Idempotent leave').length - 1).toBe(1);
  });
});

describe('requests without the header', () => {
  it('are not affected', async () => {
    const first = await org.put('/users', userBody('idem_none'));
    const second = await org.put('/users', userBody('idem_none'));
    expect(first.status).toBe(201);
    expect(second.status).toBe(422);
  });
});

describe('the OpenAPI document', () => {
  it('lists the Idempotency-Key header on POST and PUT routes only and stays a valid document', async () => {
    const document = await server.request('GET', '/v1/openapi.json');
    const headerOf = (method: string, path: string) =>
      (document.body.paths[path][method].parameters ?? []).find(
        (p: { in: string; name: string }) => p.in === 'header' && p.name === 'idempotency-key',
      );
    expect(headerOf('put', '/v1/users')).toEqual(
      expect.objectContaining({ in: 'header', name: 'idempotency-key', required: false }),
    );
    expect(headerOf('post', '/v1/time_off_types')).toEqual(expect.objectContaining({ name: 'idempotency-key' }));
    expect(headerOf('get', '/v1/users')).toBeUndefined();
    expect(headerOf('patch', '/v1/users/{user_id}')).toBeUndefined();
    const validation = await new Validator().validate(document.body);
    expect(validation.errors ?? []).toEqual([]);
  });
});
