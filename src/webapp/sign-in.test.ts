import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestOrg, type TestServer } from '../../test/helpers/server.js';

/**
 * Sign-in delays (docs/security.md, "Sign-in"): a progressive delay per account that a known
 * device (a signed cookie from an earlier sign-in) passes with the right password, an address
 * budget counted per IPv6 /64, and the session cookie's Secure / __Host- forms.
 */

const PASSWORD = 'secret-password';
const SESSION_HEADER = { 'x-crewplan-session': '1' };

let server: TestServer;
let secure: TestServer;
let org: TestOrg;

beforeAll(async () => {
  [server, secure] = await Promise.all([
    startServer({ trustProxy: ['127.0.0.1'] }),
    startServer({ trustProxy: ['127.0.0.1'], sessionCookieSecure: true }),
  ]);
  org = await server.newOrg();
});
afterAll(() => Promise.all([server.close(), secure.close()]));

/** A new user of `org` (admin unless a role is given) and its username. */
async function newUser(role = 'Administrator'): Promise<{ id: number; username: string }> {
  const id = await org.createUser({ role });
  return { id, username: (await org.get(`/users/${id}`)).body.username };
}

let addressCounter = 0;
/** A client address of its own, so that the per-address budget never interferes. */
const freshAddress = () => {
  addressCounter += 1;
  return `198.51.100.${addressCounter}`;
};

function signIn(
  username: string,
  password: string,
  options: { cookie?: string; address?: string; target?: TestServer; orgId?: number } = {},
) {
  const headers: Record<string, string> = { ...SESSION_HEADER, 'x-forwarded-for': options.address ?? freshAddress() };
  if (options.cookie) headers.cookie = options.cookie;
  return (options.target ?? server).request('POST', '/app/session', {
    body: { organization_id: options.orgId ?? org.orgId, username, password },
    headers,
  });
}

/** `name=value` of each Set-Cookie of a response. */
function cookiesOf(response: ApiResponse): Record<string, string> {
  const entries = response.headers.getSetCookie().map((line) => line.split(';')[0]);
  return Object.fromEntries(entries.map((pair) => [pair.slice(0, pair.indexOf('=')), pair]));
}

const deviceCookie = (response: ApiResponse) => cookiesOf(response).crewplan_device;

async function failTimes(username: string, times: number, cookie?: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i += 1) statuses.push((await signIn(username, 'not-the-password', { cookie })).status);
  return statuses;
}

/** Ends the account's current delay without forgetting its failures (as if the wait had passed). */
async function waitOut(): Promise<void> {
  await server.app.db
    .updateTable('sign_in_delay')
    .set({ blocked_until: Date.now() - 1 })
    .execute();
}

describe('POST /app/session: progressive delay per account', () => {
  it('lets 5 wrong passwords pass as 401s, then delays the account 30 seconds in words', async () => {
    const admin = await newUser();
    expect(await failTimes(admin.username, 5)).toEqual([401, 401, 401, 401, 401]);
    const delayed = await signIn(admin.username, PASSWORD);
    expect(delayed).toAnswer(429, {
      status: 429,
      error: 'too_many_requests',
      error_message: 'Too many failed sign-ins for this account. Try again in 30 seconds.',
    });
    expect(Number(delayed.headers.get('retry-after'))).toBeGreaterThan(25);
    expect(Number(delayed.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    expect(delayed.headers.getSetCookie()).toEqual([]);
  });

  it('lets an admin with a known device in with the right password while the account is delayed', async () => {
    const admin = await newUser();
    const first = await signIn(admin.username, PASSWORD);
    expect(first.status).toBe(200);
    const device = deviceCookie(first);
    expect(device).toMatch(/^crewplan_device=[\w.%-]+$/);
    expect(first.headers.getSetCookie().find((line) => line.startsWith('crewplan_device='))).toMatch(
      /; Max-Age=15552000; Path=\/app\/session; HttpOnly; SameSite=Strict$/,
    );

    await failTimes(admin.username, 8); // an attacker elsewhere, then delayed
    expect((await signIn(admin.username, PASSWORD)).status).toBe(429);
    const known = await signIn(admin.username, PASSWORD, { cookie: device });
    expect(known.status).toBe(200);
    expect(known.body.user.id).toBe(admin.id);
    // the attacker is still delayed: the device's sign-in does not clear the account's failures
    expect((await signIn(admin.username, PASSWORD)).status).toBe(429);
  });

  it('does not let a known device guess on: its own wrong passwords delay it too', async () => {
    const admin = await newUser();
    const device = deviceCookie(await signIn(admin.username, PASSWORD));
    await failTimes(admin.username, 5);
    expect(await failTimes(admin.username, 5, device)).toEqual([401, 401, 401, 401, 401]);
    const refused = await signIn(admin.username, PASSWORD, { cookie: device });
    expect(refused.status).toBe(429);
    expect(refused.body.error_message).toMatch(/^Too many failed sign-ins from this device\. Try again in /);
  });

  it("refuses another account's device cookie, a tampered one and a forged one", async () => {
    const [admin, other] = [await newUser(), await newUser()];
    const device = deviceCookie(await signIn(other.username, PASSWORD));
    const [name, value] = device.split('=');
    await failTimes(admin.username, 5);
    const tampered = `${name}=${decodeURIComponent(value).replace(/\.(\d+)\./, '.999999.')}`;
    for (const cookie of [device, tampered, `${name}=d1.${org.orgId}.${admin.id}.1`]) {
      expect((await signIn(admin.username, PASSWORD, { cookie })).status).toBe(429);
    }
  });

  it('grows the delay with each failure to at most 15 minutes, said in words', async () => {
    const member = await newUser('Firefighter');
    await failTimes(member.username, 5);
    await waitOut();
    expect(await failTimes(member.username, 1)).toEqual([401]);
    const sixth = await signIn(member.username, PASSWORD);
    expect(sixth.body.error_message).toBe('Too many failed sign-ins for this account. Try again in 1 minute.');
    for (let i = 0; i < 6; i += 1) {
      await waitOut();
      expect(await failTimes(member.username, 1)).toEqual([401]);
    }
    const capped = await signIn(member.username, PASSWORD);
    expect(capped.body.error_message).toBe('Too many failed sign-ins for this account. Try again in 15 minutes.');
    expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect(Number(capped.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
  });

  it("forgets an account's failures once it signs in without a delay", async () => {
    const member = await newUser('Firefighter');
    for (let round = 0; round < 3; round += 1) {
      expect(await failTimes(member.username, 4)).toEqual([401, 401, 401, 401]);
      expect((await signIn(member.username, PASSWORD)).status).toBe(200);
    }
  });

  it("clears the account's and its devices' delays when the password is set anew (PATCH /v1/users)", async () => {
    const admin = await newUser();
    const device = deviceCookie(await signIn(admin.username, PASSWORD));
    await failTimes(admin.username, 5);
    await failTimes(admin.username, 5, device);
    expect((await signIn(admin.username, PASSWORD, { cookie: device })).status).toBe(429);
    expect((await org.patch(`/users/${admin.id}`, { password: 'a-fresh-passphrase' })).status).toBe(200);
    expect((await signIn(admin.username, 'a-fresh-passphrase')).status).toBe(200);
    await failTimes(admin.username, 5);
    expect((await signIn(admin.username, 'a-fresh-passphrase', { cookie: device })).status).toBe(200);
  });

  it('counts parallel wrong passwords one by one: at most 5 of 20 are checked', async () => {
    const member = await newUser('Firefighter');
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => signIn(member.username, 'not-the-password').then((r) => r.status)),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
  });

  it('keeps the delay of an unknown username like that of a real one (no user enumeration)', async () => {
    expect(await failTimes('nobody-here', 5)).toEqual([401, 401, 401, 401, 401]);
    const delayed = await signIn('nobody-here', PASSWORD);
    expect(delayed.body.error_message).toBe('Too many failed sign-ins for this account. Try again in 30 seconds.');
  });
});

describe('POST /app/session: budget per client address', () => {
  const attempt = (i: number, address: string) =>
    signIn(`someone${i}`, 'not-the-password', { address, orgId: org.orgId + 1000 });

  it('counts every address of one IPv6 /64 as one client', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 31; i += 1) statuses.push((await attempt(i, `2001:db8:7:1::${i.toString(16)}`)).status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses[30]).toBe(429);
    const sameNetwork = await attempt(99, '2001:db8:7:1:ffff:ffff:ffff:fffe');
    expect(sameNetwork.status).toBe(429);
    expect(sameNetwork.body.error_message).toMatch(/^Too many sign-in attempts from this network\. Try again in /);
    expect((await attempt(100, '2001:db8:7:2::1')).status).toBe(401);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    for (let i = 1; i <= 30; i += 1) expect((await attempt(i, '203.0.113.77')).status).toBe(401);
    expect((await attempt(31, '::ffff:203.0.113.77')).status).toBe(429);
  });
});

describe('the session cookie', () => {
  it('is named crewplan_session without Secure over plain HTTP', async () => {
    const user = await newUser();
    const response = await signIn(user.username, PASSWORD);
    expect(response.headers.getSetCookie()[0]).toMatch(
      /^crewplan_session=cpw_[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/,
    );
  });

  it('is __Host-crewplan_session with Secure behind a trusted TLS proxy', async () => {
    const user = await newUser();
    const response = await server.request('POST', '/app/session', {
      body: { organization_id: org.orgId, username: user.username, password: PASSWORD },
      headers: { ...SESSION_HEADER, 'x-forwarded-proto': 'https' },
    });
    const lines = response.headers.getSetCookie();
    expect(lines[0]).toMatch(
      /^__Host-crewplan_session=cpw_[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
    );
    expect(lines[1]).toMatch(
      /^__Secure-crewplan_device=[^;]+; Max-Age=15552000; Path=\/app\/session; HttpOnly; Secure;/,
    );
  });

  it('is always Secure and __Host- with SESSION_COOKIE_SECURE, and only that name signs a request in', async () => {
    const secureOrg = await secure.newOrg();
    const userId = await secureOrg.createUser({ username: 'secure.admin', role: 'Administrator' });
    const response = await secure.request('POST', '/app/session', {
      body: { organization_id: secureOrg.orgId, username: 'secure.admin', password: PASSWORD },
      headers: SESSION_HEADER,
    });
    expect(response.status).toBe(200);
    const line = response.headers.getSetCookie()[0];
    expect(line).toMatch(
      /^__Host-crewplan_session=cpw_[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
    );
    const value = line.split(';')[0].split('=')[1];

    const asHost = await secure.request('GET', '/app/session', {
      headers: { cookie: `__Host-crewplan_session=${value}` },
    });
    expect(asHost.status).toBe(200);
    expect(asHost.body.user.id).toBe(userId);
    const onV1 = await secure.request('GET', '/users', {
      token: null,
      headers: { cookie: `__Host-crewplan_session=${value}`, ...SESSION_HEADER },
    });
    expect(onV1.status).toBe(200);
    const plain = await secure.request('GET', '/app/session', { headers: { cookie: `crewplan_session=${value}` } });
    expect(plain.status).toBe(401);

    const out = await secure.request('DELETE', '/app/session', {
      headers: { cookie: `__Host-crewplan_session=${value}`, ...SESSION_HEADER },
    });
    expect(out.headers.getSetCookie()[0]).toMatch(/^__Host-crewplan_session=; Max-Age=0; Path=\/; HttpOnly; Secure;/);
  });
});
