import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createAssignment } from '../resources/rotations/test-fixtures.js';
import { startServer, type ApiResponse, type TestOrg, type TestServer } from '../../test/helpers/server.js';

let server: TestServer;
/** A second server behind a trusted proxy (X-Forwarded-* believed from 127.0.0.1). */
let behindProxy: TestServer;
let org: TestOrg;
let other: TestOrg;
let adminId: number;
let memberId: number;
let colleagueId: number;
let vacationId: number;
let eventId: number;

const PASSWORD = 'secret-password';
let usernames: Record<string, string>;

beforeAll(async () => {
  [server, behindProxy] = await Promise.all([startServer(), startServer({ trustProxy: ['127.0.0.1'] })]);
  org = await server.newOrg();
  other = await server.newOrg();
  adminId = await org.createUser({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
  memberId = await org.createUser({ first_name: 'Sam', last_name: 'Crew', role: 'Firefighter' });
  colleagueId = await org.createUser({ first_name: 'Lee', last_name: 'Crew', role: 'Captain' });
  const users = (await org.get('/users')).body as Array<{ user_id: number; username: string }>;
  usernames = Object.fromEntries(users.map((u) => [String(u.user_id), u.username]));
  vacationId = (await org.post('/time_off_types', { label: 'Vacation', work_code: 'VAC' })).body.id;
  const workTypeId = (await org.get('/work_types')).body[0].id;
  eventId = (
    await org.post('/signup_events', {
      admin_id: adminId,
      title: 'Open house',
      start: '2030-05-02 10:00:00',
      end: '2030-05-02 15:00:00',
      employees_needed: 3,
      work_type_id: workTypeId,
    })
  ).body.id;
});
afterAll(() => Promise.all([server.close(), behindProxy.close()]));

const SESSION_HEADER = { 'x-crewplan-session': '1' };

function signIn(userId: number, password = PASSWORD, orgId = org.orgId, headers: Record<string, string> = {}) {
  return server.request('POST', '/app/session', {
    body: { organization_id: orgId, username: usernames[String(userId)] ?? 'nobody', password },
    headers: { ...SESSION_HEADER, ...headers },
  });
}

function cookieOf(response: ApiResponse): string {
  const header = response.headers.get('set-cookie') ?? '';
  return header.split(';')[0];
}

/** A /v1 call the way the web app makes it: session cookie plus the session header. */
function asSession(cookie: string) {
  const headers = { cookie, 'x-crewplan-session': '1' };
  return {
    get: (path: string, query?: Record<string, string>) => server.request('GET', path, { headers, query }),
    post: (path: string, body: unknown = {}) => server.request('POST', path, { headers, body }),
    put: (path: string, body: unknown = {}) => server.request('PUT', path, { headers, body }),
    del: (path: string) => server.request('DELETE', path, { headers }),
  };
}

async function sessionOf(userId: number) {
  const response = await signIn(userId);
  expect(response.status).toBe(200);
  return asSession(cookieOf(response));
}

async function requestTimeOff(userId: number, start = '2030-07-10 07:00:00', end = '2030-07-11 07:00:00') {
  const response = await org.post(`/users/${userId}/time_offs`, {
    time_off_type_id: vacationId,
    start_date: start,
    end_date: end,
    admin_ids: [adminId],
  });
  expect(response.status).toBe(201);
  return response.body.id as number;
}

describe('POST /app/session', () => {
  it('signs a user in with a session cookie that is HttpOnly, SameSite=Strict, unreadable by scripts', async () => {
    const response = await signIn(adminId);
    expect(response).toAnswer(200, {
      user: { id: adminId, username: usernames[String(adminId)], name: 'Dana Chief', role: 'Admin', is_admin: true },
      organization: { id: org.orgId, name: expect.any(String), timezone: 'America/Chicago' },
      expires_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const cookie = response.headers.getSetCookie()[0];
    expect(cookie).toMatch(
      /^crewplan_session=cpw_[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('marks the cookie Secure behind a trusted TLS proxy (X-Forwarded-Proto), not on a forged header', async () => {
    const forged = await signIn(colleagueId, PASSWORD, org.orgId, { 'x-forwarded-proto': 'https' });
    expect(forged.status).toBe(200);
    expect(forged.headers.get('set-cookie')).not.toMatch(/Secure/);

    const proxied = await behindProxy.newOrg();
    const userId = await proxied.createUser({ username: 'proxied.user' });
    const response = await behindProxy.request('POST', '/app/session', {
      body: { organization_id: proxied.orgId, username: 'proxied.user', password: PASSWORD },
      headers: { ...SESSION_HEADER, 'x-forwarded-proto': 'https' },
    });
    expect(response.status).toBe(200);
    expect(response.body.user.id).toBe(userId);
    expect(response.headers.getSetCookie()[0]).toMatch(
      /^__Host-crewplan_session=[^;]+; .*; HttpOnly; Secure; SameSite=Strict$/,
    );
  });

  it('tells members from admins by role', async () => {
    const response = await signIn(memberId);
    expect(response.body.user).toEqual({
      id: memberId,
      username: usernames[String(memberId)],
      name: 'Sam Crew',
      role: 'Firefighter',
      is_admin: false,
    });
  });

  it('refuses a wrong password, an unknown user and another organization alike', async () => {
    const expected = {
      status: 401,
      error: 'unauthorized',
      error_message: 'The organization, username or password is not correct.',
    };
    const wrong = await signIn(colleagueId, 'not-the-password');
    const unknown = await server.request('POST', '/app/session', {
      body: { organization_id: org.orgId, username: 'ghost', password: PASSWORD },
      headers: SESSION_HEADER,
    });
    const otherOrg = await signIn(colleagueId, PASSWORD, other.orgId);
    for (const response of [wrong, unknown, otherOrg]) {
      expect(response).toAnswer(401, expected);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
  });

  it('refuses a sign-in without the X-Crewplan-Session header, e.g. a cross-site form post (login CSRF)', async () => {
    const response = await server.request('POST', '/app/session', {
      body: { organization_id: String(org.orgId), username: usernames[String(adminId)], password: PASSWORD },
      form: true,
    });
    expect(response).toAnswer(401, {
      status: 401,
      error: 'unauthorized',
      error_message: 'The x-crewplan-session header is required.',
    });
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('answers a malformed body with a 4xx JSON error', async () => {
    const response = await server.request('POST', '/app/session', {
      body: { organization_id: 'x', username: '' },
      headers: SESSION_HEADER,
    });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ status: 422, error: 'invalid_params' });
  });

  it('writes a system log entry for the sign-in', async () => {
    await signIn(colleagueId);
    const logs = await org.get('/logs');
    expect(logs.body.data.map((entry: { event_description: string }) => entry.event_description)).toContain(
      'Lee Crew signed in to the web app.',
    );
  });
});

// sign-in delays and budgets: sign-in.test.ts

describe('GET /app/session and DELETE /app/session', () => {
  it('reads the signed-in user, then signs out: the cookie is cleared and the session no longer works', async () => {
    const cookie = cookieOf(await signIn(memberId));
    const current = await server.request('GET', '/app/session', { headers: { cookie } });
    expect(current.status).toBe(200);
    expect(current.body.user.id).toBe(memberId);

    const refused = await server.request('DELETE', '/app/session', { headers: { cookie } });
    expect(refused.status).toBe(401);

    const out = await server.request('DELETE', '/app/session', { headers: { cookie, 'x-crewplan-session': '1' } });
    expect(out).toAnswer(200, { success: true });
    expect(out.headers.get('set-cookie')).toMatch(/^crewplan_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Strict$/);
    expect((await server.request('GET', '/app/session', { headers: { cookie } })).status).toBe(401);
    expect(
      (await asSession(cookie).get('/schedule', { start: '2030-05-01 00:00:00', end: '2030-05-01 23:59:59' })).status,
    ).toBe(401);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe('Sam Crew signed out of the web app.');
  });

  it('ends every session of a user whose password is changed', async () => {
    const userId = await org.createUser({ first_name: 'Pat', last_name: 'Moved', role: 'Firefighter' });
    const username = (await org.get(`/users/${userId}`)).body.username as string;
    const signInAs = (password: string) =>
      server.request('POST', '/app/session', {
        body: { organization_id: org.orgId, username, password },
        headers: SESSION_HEADER,
      });
    const cookie = cookieOf(await signInAs(PASSWORD));
    expect((await server.request('GET', '/app/session', { headers: { cookie } })).status).toBe(200);

    expect((await org.patch(`/users/${userId}`, { password: 'a-new-password-1' })).status).toBe(200);
    expect((await server.request('GET', '/app/session', { headers: { cookie } })).status).toBe(401);
    expect((await signInAs('a-new-password-1')).status).toBe(200);
  });

  it('answers 401 without a session', async () => {
    const response = await server.request('GET', '/app/session');
    expect(response).toAnswer(401, { status: 401, error: 'unauthorized', error_message: 'Not signed in.' });
  });

  it('ends an expired session', async () => {
    const cookie = cookieOf(await signIn(colleagueId));
    await server.app.db
      .updateTable('web_session')
      .set({ expires_at: '2020-01-01T00:00:00.000Z' })
      .where('organization_id', '=', org.orgId)
      .where('user_id', '=', colleagueId)
      .execute();
    expect((await server.request('GET', '/app/session', { headers: { cookie } })).status).toBe(401);
  });
});

describe('/v1 with a session', () => {
  const day = { start: '2030-05-01 00:00:00', end: '2030-05-01 23:59:59' };

  it('needs the X-Crewplan-Session header beside the cookie (CSRF defence)', async () => {
    const cookie = cookieOf(await signIn(adminId));
    const withoutHeader = await server.request('GET', '/schedule', { headers: { cookie }, query: day });
    expect(withoutHeader).toAnswer(401, {
      status: 401,
      error: 'unauthorized',
      error_message: 'The access token is missing.',
    });
    const withHeader = await asSession(cookie).get('/schedule', day);
    expect(withHeader.status).toBe(200);
    expect(withHeader.body.days).toHaveLength(1);
  });

  it('refuses a forged or unknown session cookie', async () => {
    const response = await asSession('crewplan_session=cpw_forged').get('/schedule', day);
    expect(response).toAnswer(401, {
      status: 401,
      error: 'unauthorized',
      error_message: 'The session has ended; sign in again.',
    });
  });

  it('scopes a session to its organization', async () => {
    const session = await sessionOf(adminId);
    const foreignType = (await other.post('/time_off_types', { label: 'Other', work_code: 'OT' })).body.id;
    expect((await session.get(`/time_off_types/${foreignType}`)).status).toBe(404);
  });

  it('lets an admin act on the whole organization and names them in the log', async () => {
    const session = await sessionOf(adminId);
    const timeOffId = await requestTimeOff(memberId, '2030-08-01 07:00:00', '2030-08-02 07:00:00');
    const approved = await session.post(`/time_offs/${timeOffId}/approve`, { admin_id: adminId });
    expect(approved.status).toBe(200);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toMatch(/^Dana Chief approved/);
    expect(
      (await session.get('/time_offs', { start: '2030-08-01 00:00:00', end: '2030-08-03 00:00:00' })).body.items[0]
        .status,
    ).toBe(1);
  });
});

describe('what a member (not an admin) may do', () => {
  let member: ReturnType<typeof asSession>;
  beforeAll(async () => {
    member = await sessionOf(memberId);
  });

  it('reads the schedule, catalogs, sign-up events and callbacks', async () => {
    for (const [path, query] of [
      ['/schedule', { start: '2030-05-01 00:00:00', end: '2030-05-07 23:59:59' }],
      ['/day_labels', { start: '2030-05-01', end: '2030-05-07' }],
      ['/visual_cycles', undefined],
      ['/time_off_types', undefined],
      ['/signup_events', undefined],
      [`/signup_events/${eventId}/users`, undefined],
      ['/callbacks', undefined],
      ['/users', undefined],
    ] as const) {
      expect([path, (await member.get(path, query)).status]).toEqual([path, 200]);
    }
  });

  it('sets their own callback contact settings and no one else’s', async () => {
    const own = await member.put(`/v1/users/${memberId}/callback_settings`, {
      contact_method: 'Text (SMS)',
      do_not_disturb_start: '22:00',
      do_not_disturb_end: '07:00',
    });
    expect(own.status, own.text).toBe(200);
    expect((await member.get(`/v1/users/${memberId}/callback_settings`)).body).toMatchObject({
      contact_method: 'Text (SMS)',
      do_not_disturb_start: '22:00',
    });
    expect((await member.get(`/v1/users/${colleagueId}/callback_settings`)).status).toBe(403);
    expect((await member.put(`/v1/users/${colleagueId}/callback_settings`, { contact_method: 'Email' })).status).toBe(
      403,
    );
    expect((await org.get(`/users/${colleagueId}/callback_settings`)).body.contact_method).toBeNull();
  });

  it("is refused the organization-wide time off listing, others' data and every admin write (403)", async () => {
    const forbidden = {
      status: 403,
      error: 'forbidden',
      error_message: 'Only an admin may do this; you may read the schedule and act on your own requests.',
    };
    const timeOffId = await requestTimeOff(colleagueId, '2030-09-01 07:00:00', '2030-09-02 07:00:00');
    const attempts = [
      await member.get('/time_offs', { start: '2030-09-01 00:00:00', end: '2030-09-03 00:00:00' }),
      await member.get(`/users/${colleagueId}/time_offs`),
      await member.get(`/users/${colleagueId}`),
      await member.post(`/users/${colleagueId}/time_offs`, {
        time_off_type_id: vacationId,
        start_date: '2030-09-05 07:00:00',
        end_date: '2030-09-06 07:00:00',
      }),
      await member.post(`/time_offs/${timeOffId}/approve`, { admin_id: adminId }),
      await member.del(`/time_offs/${timeOffId}`),
      await member.post(`/signup_events/${eventId}/users`, { user_id: colleagueId }),
      await member.del(`/signup_events/${eventId}/users/${colleagueId}`),
      await member.post('/time_off_types', { label: 'Sneaky' }),
      await member.get('/logs'),
      // refused before its body is read: a malformed body tells nothing of the rules (a taken username)
      await member.put('/users', { username: 'admin', first_name: 'A', last_name: 'B', mail: 'x', password: 'p' }),
      await member.post('/time_offs', { user_id: 999_999, admin_ids: [adminId], start_date: 'x' }),
      await member.del('/time_offs/abc'),
    ];
    for (const response of attempts) {
      expect(response).toAnswer(403, forbidden);
    }
    expect((await org.get(`/time_offs/${timeOffId}`)).body.items[0].status).toBe(0);
  });

  it('requests time off for themselves and cancels it while pending, but not once approved', async () => {
    const requested = await member.post(`/users/${memberId}/time_offs`, {
      time_off_type_id: vacationId,
      start_date: '2030-10-01 07:00:00',
      end_date: '2030-10-02 07:00:00',
      admin_ids: [adminId],
    });
    expect(requested.status).toBe(201);
    const own = await member.get(`/users/${memberId}/time_offs`, {
      start: '2030-09-30 00:00:00',
      end: '2030-10-03 00:00:00',
    });
    expect(own.body.map((entry: { id: string; status: string }) => [Number(entry.id), entry.status])).toEqual([
      [requested.body.id, '0'],
    ]);
    expect((await member.del(`/time_offs/${requested.body.id}`)).status).toBe(200);
    expect((await org.get(`/time_offs/${requested.body.id}`)).status).toBe(404);

    const approvedId = await requestTimeOff(memberId, '2030-11-01 07:00:00', '2030-11-02 07:00:00');
    await org.post(`/time_offs/${approvedId}/approve`, { admin_id: adminId });
    expect((await member.del(`/time_offs/${approvedId}`)).status).toBe(403);
  });

  it('requests a trade of their own shift, offered to a colleague: none for others, none accepted', async () => {
    const assignmentId = await createAssignment(org, {
      name: 'Engine 9',
      start: '2030-11-01 07:00:00',
      end: '2030-11-02 07:00:00',
    });
    const workTypeId = (await org.get('/work_types')).body[0].id;
    const shift = { assignment_id: assignmentId, work_type_id: workTypeId, date: '2030-11-03' };
    const span = { start: '2030-11-03 07:00:00', end: '2030-11-04 07:00:00' };
    const placed = await org.post('/shifts', { ...shift, ...span, user_id: memberId });
    expect(placed.status, placed.text).toBe(201);
    const colleagues = [colleagueId];
    const request = { requesting_user: memberId, ...span, approving_user_id: adminId, offered_user_ids: colleagues };
    for (const refused of [
      { ...request, approve: true },
      { ...request, accepting_user_id: colleagueId },
      { ...request, requesting_user: colleagueId, offered_user_ids: [memberId] },
      [request],
    ])
      expect((await member.post('/trades', refused)).status).toBe(403);
    const requested = await member.post('/trades', request);
    expect(requested.status, requested.text).toBe(201);
    const trade = (await org.get(`/trades/${requested.body.id}`)).body;
    expect(trade).toMatchObject({ status: 'pending', requesting_user: { id: String(memberId) }, accepting_user: null });
    const offered = (await org.get(`/trades/${requested.body.id}/users`)).body;
    expect(offered).toEqual([expect.objectContaining({ id: String(colleagueId), status: 'offered' })]);
    expect((await member.get(`/users/${memberId}/trade_balance`)).status).toBe(200);
  });

  it('signs up for an event and withdraws', async () => {
    const joined = await member.post(`/signup_events/${eventId}/users`, { user_id: memberId });
    expect(joined.status).toBe(201);
    const users = await member.get(`/signup_events/${eventId}/users`);
    expect(users.body.map((entry: { user: { id: number } }) => entry.user.id)).toEqual([memberId]);
    expect((await member.del(`/signup_events/${eventId}/users/${memberId}`)).status).toBe(200);
    expect((await member.get(`/signup_events/${eventId}/users`)).body).toEqual([]);
  });
});

describe('GET /app (the built web app)', () => {
  it('serves index.html at /app and for client routes under it, and the hashed assets', async () => {
    const index = await server.request('GET', '/app');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.text).toContain('<div id="root"></div>');
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    const deep = await server.request('GET', '/app/month/2030-05-01');
    expect(deep.status).toBe(200);
    expect(deep.text).toBe(index.text);
    const script = /src="\/app\/(assets\/[^"]+\.js)"/.exec(index.text)?.[1];
    const asset = await server.request('GET', `/app/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('never serves files outside the build', async () => {
    const response = await server.request('GET', '/app/..%2f..%2fpackage.json');
    expect(response.status).toBe(200);
    expect(response.text).toContain('<div id="root"></div>');
  });

  it('starts without a build and answers /app with 503 JSON', async () => {
    // a second app on the same (migrated) database, pointed at a folder with no build
    const app = await buildApp(server.config, {
      logger: false,
      handle: server.app.dbHandle,
      migrate: false,
      webDistDir: join(tmpdir(), 'crewplan-no-such-build'),
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/app/month' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        status: 503,
        error: 'unavailable',
        error_message: 'The web app is not built on this server (npm run build:web).',
      });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
