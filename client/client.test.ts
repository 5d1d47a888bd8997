import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../test/helpers/server.js';
import {
  approvedTimeOff,
  createAssignment,
  createRotation,
  placeOnRotation,
} from '../src/resources/rotations/test-fixtures.js';
import { createCrewplanClient, CrewplanApiError, TokenError, type CrewplanClient } from './src/index.js';

/** The generated client against the real server: tokens, one call per resource family, the three pagination patterns. */

let server: TestServer;
let org: TestOrg;
let userId: number;
let adminId: number;
/** Paths (with query) the client sent, to see the pages it fetched. */
let sent: string[];
let clock: number;
let client: CrewplanClient;

function newClient(secret = org.clientSecret): CrewplanClient {
  return createCrewplanClient({
    baseUrl: server.url,
    clientId: org.clientId,
    clientSecret: secret,
    now: () => clock,
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      sent.push(url.pathname + url.search);
      return fetch(input, init);
    },
  });
}

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ timezone: 'America/Chicago' });
  adminId = await org.createUser({ first_name: 'Ada', last_name: 'Admin' });
  userId = await org.createUser({ first_name: 'Casey', last_name: 'Client' });
  const assignmentId = await createAssignment(org, { name: 'Station 3' });
  const rotationId = await createRotation(org);
  await placeOnRotation(org, { user_id: userId, rotation_id: rotationId, assignment_id: assignmentId, crew: 'A' });
  for (const day of ['03', '06', '09', '12', '15']) {
    await approvedTimeOff(org, userId, adminId, `2027-02-${day} 08:00:00`, `2027-02-${day} 12:00:00`);
  }
  clock = Date.now();
  sent = [];
  client = newClient();
});
afterAll(() => server.close());

describe('tokens', () => {
  it('requests a token once and reuses it', async () => {
    const fresh = newClient();
    expect(fresh.tokens.requests).toBe(0);
    unwrapStatus(await fresh.api.GET('/v1/users'));
    unwrapStatus(await fresh.api.GET('/v1/work_types'));
    expect(fresh.tokens.requests).toBe(1);
  });

  it('renews the token before it expires', async () => {
    const fresh = newClient();
    unwrapStatus(await fresh.api.GET('/v1/users'));
    clock += (server.config.tokenTtlSeconds - 30) * 1000; // within the 60 s margin
    try {
      unwrapStatus(await fresh.api.GET('/v1/users'));
      expect(fresh.tokens.requests).toBe(2);
    } finally {
      clock = Date.now();
    }
  });

  it('gets a new token and retries once when the server refuses the token', async () => {
    const fresh = newClient();
    unwrapStatus(await fresh.api.GET('/v1/users'));
    await server.app.db.deleteFrom('access_token').where('organization_id', '=', org.orgId).execute();
    const { data, response } = await fresh.api.PUT('/v1/users', {
      body: {
        username: 'retried',
        first_name: 'Re',
        last_name: 'Tried',
        mail: 'retried@example.com',
        password: 'secret-password',
      },
    });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ success: true });
    expect(fresh.tokens.requests).toBe(2);
    expect((await org.get('/users', { token: null, headers: { authorization: `Bearer ${org.token}` } })).status).toBe(
      401,
    );
  });

  it('reports a wrong client secret as a TokenError', async () => {
    const wrong = newClient('cps_wrong');
    await expect(wrong.api.GET('/v1/users')).rejects.toBeInstanceOf(TokenError);
  });
});

/** openapi-fetch answers {data, error, response}; the families below must all succeed. */
function unwrapStatus<T>(result: { data?: T; error?: unknown; response: Response }, status = 200): T {
  expect(result.response.status, JSON.stringify(result.error)).toBe(status);
  return result.data as T;
}

describe('one call per resource family', () => {
  it('reads and writes through typed paths', async () => {
    const users = unwrapStatus(await client.api.GET('/v1/users'));
    expect(users.some((u) => u.user_id === userId)).toBe(true);
    const user = unwrapStatus(await client.api.GET('/v1/users/{user_id}', { params: { path: { user_id: userId } } }));
    expect(user).toMatchObject({ user_id: userId, first_name: 'Casey' });
    const assignments = unwrapStatus(await client.api.GET('/v1/assignments'));
    expect(assignments.map((a) => a.name)).toContain('Station 3');
    const shifts = unwrapStatus(
      await client.api.GET('/v1/schedule', { params: { query: { start: '2027-01-01', end: '2027-01-02' } } }),
    );
    expect(shifts.days[0]!.assignments[0]!.shifts[0]!.user.id).toBe(userId);
    const workTypes = unwrapStatus(await client.api.GET('/v1/work_types'));
    expect(workTypes.map((t) => t.label)).toContain('Regular Time');
    const types = unwrapStatus(await client.api.GET('/v1/time_off_types'));
    expect(types.length).toBeGreaterThan(0);
    unwrapStatus(await client.api.GET('/v1/groups'));
    unwrapStatus(await client.api.GET('/v1/qualifiers'));
    const announcement = await client.api.POST('/v1/announcements', {
      body: { body: '<p>Drill at 10</p>', title: 'Drill' },
    });
    expect(announcement.response.status).toBe(201);
    unwrapStatus(await client.api.GET('/v1/trades'));
    unwrapStatus(await client.api.GET('/v1/signup_events'));
    unwrapStatus(await client.api.GET('/v1/webhooks'));
    const feed = await client.api.POST('/v1/calendar_feeds', { body: { user_id: userId } });
    expect(feed.response.status).toBe(201);
    expect(feed.data?.url).toMatch(/\/feeds\/cpf_/);
  });

  it('answers the API error of a failed call', async () => {
    const missing = await client.api.GET('/v1/users/{user_id}', { params: { path: { user_id: 999999 } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ status: 404, error: 'not found' });
    const iterator = client.timeOffs({ start: '2027-02-02', end: '2027-02-01' });
    await expect(iterator.next()).rejects.toBeInstanceOf(CrewplanApiError);
  });
});

describe('pagination patterns as async iterators', () => {
  it('pattern 1: GET /time_offs follows metadata.links.next', async () => {
    const query = { start: '2027-02-01 00:00:00', end: '2027-03-01 00:00:00' };
    const onePage = unwrapStatus(
      await client.api.GET('/v1/time_offs', { params: { query: { ...query, limit: 500 } } }),
    );
    expect(onePage.items).toHaveLength(5);
    sent = [];
    const entries = await collect(client.timeOffs({ ...query, limit: 2 }));
    expect(entries.map((e) => [e.id, e.start])).toEqual(onePage.items.map((e) => [e.id, e.start]));
    expect(sent.filter((path) => path.startsWith('/v1/time_offs'))).toHaveLength(3);
  });

  it('pattern 2: GET /schedule follows next.href period after period until the given end', async () => {
    sent = [];
    const periods = await collect(
      client.schedulePeriods({ start: '2027-01-01', end: '2027-01-08' }, { until: '2027-01-22' }),
    );
    expect(periods.map((p) => [p.start, p.end])).toEqual([
      ['2027-01-01 00:00:00', '2027-01-08 00:00:00'],
      ['2027-01-08 00:00:00', '2027-01-15 00:00:00'],
      ['2027-01-15 00:00:00', '2027-01-22 00:00:00'],
    ]);
    expect(periods.flatMap((p) => p.days)).toHaveLength(21);
    expect(sent.filter((path) => path.startsWith('/v1/schedule'))).toHaveLength(4);
  });

  it('pattern 3: GET /logs follows pagination.next (before_id keyset) to the oldest entry', async () => {
    const onePage = unwrapStatus(await client.api.GET('/v1/logs', { params: { query: { limit: 200 } } }));
    expect(onePage.data.length).toBeGreaterThan(6);
    sent = [];
    const entries = await collect(client.logs({ limit: 3 }));
    expect(entries.map((e) => e.log_id)).toEqual(onePage.data.map((e) => e.log_id));
    const pages = sent.filter((path) => path.startsWith('/v1/logs'));
    // one request per page of 3 (a server may answer a last, empty page when the previous one was full)
    expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(onePage.data.length / 3));
    expect(pages.length).toBeLessThanOrEqual(Math.ceil(onePage.data.length / 3) + 1);
    expect(pages.slice(1).every((path) => path.includes('before_id='))).toBe(true);
  });

  it('pattern 3: GET /announcements follows pagination.next with offsets', async () => {
    for (const title of ['One', 'Two', 'Three']) {
      await client.api.POST('/v1/announcements', { body: { body: `<p>${title}</p>`, title } });
    }
    const all = unwrapStatus(await client.api.GET('/v1/announcements', { params: { query: { limit: 100 } } }));
    const entries = await collect(client.announcements({ limit: 2 }));
    expect(entries.map((a) => a.id)).toEqual(all.data.map((a) => a.id));
    expect(entries.length).toBeGreaterThanOrEqual(3);
  });
});
