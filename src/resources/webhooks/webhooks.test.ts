import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';

// Short worker timings for the tests (read by the webhooks plugin when the server starts); given
// back in afterAll, since test files share their worker's process (vitest.config.ts).
vi.stubEnv('WEBHOOK_POLL_MS', '50');
vi.stubEnv('WEBHOOK_BACKOFF_BASE_MS', '100');
vi.stubEnv('WEBHOOK_BACKOFF_MAX_MS', '400');
vi.stubEnv('WEBHOOK_MAX_ATTEMPTS', '8');
vi.stubEnv('WEBHOOK_TIMEOUT_MS', '20000');

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A test receiver: records every POST; answers `status()` (200 unless told otherwise). */
class Receiver {
  readonly received: Received[] = [];
  status = () => 200;
  /** Sent as Location with the status (a redirect). */
  location: string | undefined;
  private server: Server | undefined;
  port = 0;

  async listen(port = 0): Promise<void> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const status = this.status();
        if (status === 200) this.received.push({ headers: request.headers, body });
        response.writeHead(status, this.location ? { location: this.location } : {}).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  get url() {
    return `http://127.0.0.1:${this.port}/hooks`;
  }
}

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const SECRET = 'test-secret-0123456789';
const sign = (timestamp: string, body: string) =>
  `v1=${createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex')}`;

/**
 * The resolver of the server that keeps the default address checks: only the names below resolve,
 * and no test ever connects to anything but 127.0.0.1. `rebind.test` answers `rebindTo`.
 */
const names: Record<string, string> = {
  'loopback.test': '127.0.0.1',
  'metadata.test': '169.254.169.254',
  'public.test': '8.8.8.8',
  'compatible.test': '::a9fe:a9fe',
  'nat64-public.test': '64:ff9b::808:808',
};
let rebindTo = '8.8.8.8';
const stubLookup = ((
  hostname: string,
  options: { all?: boolean },
  callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
) => {
  const address = hostname === 'rebind.test' ? rebindTo : names[hostname];
  if (!address)
    return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
  const family = address.includes(':') ? 6 : 4;
  if (options.all) callback(null, [{ address, family }]);
  else callback(null, address, family);
}) as unknown as LookupFunction;

/** The local receivers are reached through the operator setting; everything else is checked. */
let server: TestServer;
/** The defaults: no private address allowed; host names resolved by the stub above. */
let checked: TestServer;
const receivers: Receiver[] = [];

beforeAll(async () => {
  [server, checked] = await Promise.all([
    startServer({ webhookAllowedHosts: ['127.0.0.1'] }),
    startServer({ webhookLookup: stubLookup }),
  ]);
});
afterAll(async () => {
  await Promise.all([server.close(), checked.close()]);
  for (const receiver of receivers) await receiver.close();
  vi.unstubAllEnvs();
});

async function newReceiver(): Promise<Receiver> {
  const receiver = new Receiver();
  receivers.push(receiver);
  await receiver.listen();
  return receiver;
}

/** A row of an endpoint's delivery log (GET /webhooks/{id}/deliveries). */
interface Delivery {
  id: number;
  event_id: string;
  state: string;
  attempt: number;
  response_status: number | null;
}

/**
 * The endpoint's delivery log, newest first, once `ready` holds for it. The worker logs an attempt
 * after its answer, so a receiver may have counted a delivery that the log does not show yet.
 */
function deliveriesWhen(org: TestOrg, endpointId: number, ready: (log: Delivery[]) => boolean): Promise<Delivery[]> {
  return waitFor(async () => {
    const log = (await org.get(`/webhooks/${endpointId}/deliveries`, { query: { limit: 200 } })).body as Delivery[];
    return ready(log) ? log : undefined;
  });
}

async function register(org: TestOrg, url: string, extra: Record<string, unknown> = {}): Promise<number> {
  const response = await org.post('/webhooks', { url, secret: SECRET, ...extra });
  expect(response.status, response.text).toBe(201);
  return response.body.id as number;
}

describe('POST /webhooks (extension)', () => {
  it('registers an endpoint and shows the secret once', async () => {
    const org = await server.newOrg({ timezone: 'America/Chicago' });
    const response = await org.post('/webhooks', {
      url: 'https://example.com/hooks',
      event_types: ['shift.*', 'time_off.approved'],
      description: 'payroll',
    });
    expect(response.status).toBe(201);
    const endpoint = {
      id: expect.any(Number),
      url: 'https://example.com/hooks',
      event_types: ['shift.*', 'time_off.approved'],
      description: 'payroll',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[56]:00$/),
      failed_attempts: 0,
      next_attempt_at: null,
    };
    expect(response.body).toEqual({ ...endpoint, secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/) });
    expect((await org.get(`/webhooks/${response.body.id}`)).body).toEqual(endpoint);
    expect((await org.get('/webhooks')).body).toEqual([endpoint]);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe(
      `API client ${org.clientId} registered webhook https://example.com/hooks.`,
    );
  });

  it('rejects URLs that are not http(s) and malformed event types', async () => {
    const org = await server.newOrg();
    const ftp = await org.post('/webhooks', { url: 'ftp://example.com/x' });
    expect(ftp).toBeInvalid(['The url must be an http or https URL.']);
    const bad = await org.post('/webhooks', { url: 'not a url at all' });
    expect(bad).toBeInvalid(['The url is not a valid URL.']);
    const types = await org.post('/webhooks', { url: 'https://example.com', event_types: ['Shift Created'] });
    expect(types.status).toBe(422);
    const shortSecret = await org.post('/webhooks', { url: 'https://example.com', secret: 'short' });
    expect(shortSecret).toBeInvalid(['The secret must be at least 16 characters.']);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'POST', '/webhooks', { url: 'https://example.com' });
    await expectAuthRequired(server, 'GET', '/webhooks');
  });
});

describe('webhook targets (docs/security.md, API7)', () => {
  const refused = (reason: string) => ({
    status: 422,
    error: 'invalid_params',
    error_message: [`The url may only point to a public address: ${reason}.`],
  });

  it.each([
    ['http://127.0.0.1/hooks', '127.0.0.1, a loopback address'],
    ['http://10.0.0.1/hooks', '10.0.0.1, a private address'],
    ['http://192.168.1.20:8080/', '192.168.1.20, a private address'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254, a link local address'],
    ['http://[::1]:8080/hooks', '::1, a loopback address'],
    ['http://[fd00::5]/', 'fd00::5, a unique local address'],
    ['http://[::ffff:10.0.0.1]/', '10.0.0.1, a private address'],
    ['http://0.0.0.0/', '0.0.0.0, an unspecified address'],
    ['http://2130706433/', '127.0.0.1, a loopback address'],
    ['https://loopback.test/hooks', 'loopback.test resolves to 127.0.0.1, a loopback address'],
    ['https://metadata.test/hooks', 'metadata.test resolves to 169.254.169.254, a link local address'],
    // IPv6 forms that embed an IPv4 address are judged by that address (issue 41, F10)
    ['http://[::127.0.0.1]/', '::7f00:1 embeds 127.0.0.1, a loopback address'],
    ['http://[::a9fe:a9fe]/', '::a9fe:a9fe embeds 169.254.169.254, a link local address'],
    ['http://[::a00:1]/', '::a00:1 embeds 10.0.0.1, a private address'],
    ['http://[::ffff:0:7f00:1]/', '::ffff:0:7f00:1 embeds 127.0.0.1, a loopback address'],
    ['http://[64:ff9b::a9fe:a9fe]/', '64:ff9b::a9fe:a9fe embeds 169.254.169.254, a link local address'],
    ['http://[2002:a00:1::1]/', '2002:a00:1::1 embeds 10.0.0.1, a private address'],
    [
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
      '2001:0:4136:e378:8000:63bf:80ff:fffe embeds 127.0.0.1, a loopback address',
    ],
    ['http://[2001:0:a00:1::1]/', '2001:0:a00:1::1 embeds 10.0.0.1, a private address'],
    [
      'https://compatible.test/',
      'compatible.test resolves to ::a9fe:a9fe embeds 169.254.169.254, a link local address',
    ],
  ])('refuses to register %s', async (url, reason) => {
    const org = await checked.newOrg();
    const response = await org.post('/webhooks', { url, event_types: ['isolation.never'] });
    expect(response.body).toEqual(refused(reason));
    expect((await org.get('/webhooks')).body).toEqual([]);
  });

  it.each([
    'http://[::808:808]/',
    'http://[64:ff9b::808:808]/',
    'http://[2002:808:808::1]/',
    'https://nat64-public.test/',
  ])('registers %s, an IPv6 form of a public IPv4 address', async (url) => {
    const org = await checked.newOrg();
    expect((await org.post('/webhooks', { url, event_types: ['isolation.never'] })).status).toBe(201);
  });

  it('refuses a Web Push endpoint on an IPv4-compatible address (the same filter)', async () => {
    const org = await checked.newOrg();
    const userId = await org.createUser({ first_name: 'Push', last_name: 'Target' });
    const key = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url');
    const response = await org.post(`/users/${userId}/push_subscriptions`, {
      endpoint: 'https://[::a9fe:a9fe]/push',
      keys: { p256dh: key, auth: Buffer.alloc(16, 2).toString('base64url') },
    });
    expect(response.body).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: [
        'The endpoint may only point to a public address: ::a9fe:a9fe embeds 169.254.169.254, a link local address.',
      ],
    });
  });

  it('registers a host with a public address, and one that does not resolve yet (checked at delivery)', async () => {
    const org = await checked.newOrg();
    expect(
      (await org.post('/webhooks', { url: 'https://public.test/hooks', event_types: ['isolation.never'] })).status,
    ).toBe(201);
    expect(
      (await org.post('/webhooks', { url: 'https://unknown.test/hooks', event_types: ['isolation.never'] })).status,
    ).toBe(201);
  });

  it('refuses a delivery when the host now resolves to a private address (DNS rebinding), not connecting', async () => {
    const org = await checked.newOrg();
    const receiver = await newReceiver();
    rebindTo = '8.8.8.8';
    const endpointId = await register(org, `http://rebind.test:${receiver.port}/hooks`);
    rebindTo = '127.0.0.1'; // before any event exists: nothing is ever sent to the public address
    await org.post('/announcements', { title: 'rebound', body: '<p>x</p>' });
    const deliveries = await deliveriesWhen(org, endpointId, (log) => log.length > 0);
    // newest first: the first attempt is the last row (a retry may have followed under load)
    expect(deliveries.at(-1)).toEqual({
      id: expect.any(Number),
      event_id: expect.any(String),
      event_type: 'announcement.created',
      attempt: 1,
      state: 'failed',
      response_status: null,
      error: 'refused: rebind.test resolves to 127.0.0.1, a loopback address; webhooks only reach public addresses',
      duration_ms: expect.any(Number),
      created_at: expect.any(String),
    });
    expect(receiver.received).toEqual([]);
  });

  it('does not follow a redirect (to a private address or any other)', async () => {
    const org = await server.newOrg();
    const receiver = await newReceiver();
    receiver.status = () => 302;
    receiver.location = 'http://10.0.0.1/internal';
    const endpointId = await register(org, receiver.url);
    await org.post('/announcements', { title: 'redirected', body: '<p>x</p>' });
    const [attempt] = await deliveriesWhen(org, endpointId, (log) => log.length > 0);
    expect(attempt).toMatchObject({
      state: 'failed',
      response_status: 302,
      error: 'HTTP 302: redirects are not followed',
    });
  });
});

describe('signing secrets at rest (issue 41, F4)', () => {
  const stored = (id: number) =>
    server.app.db
      .selectFrom('webhook_endpoint')
      .select(['secret', 'secret_sealed'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('stores the secret sealed with the server key, seals one left in clear at start, and signs with it', async () => {
    const org = await server.newOrg();
    const receiver = await newReceiver();
    const endpointId = await register(org, receiver.url, { event_types: ['announcement.*'] });
    const row = await stored(endpointId);
    expect(row.secret).toBe('');
    expect(row.secret_sealed).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(row.secret_sealed).not.toContain(SECRET);

    // an endpoint written before secrets were sealed: a server sealing it when it starts
    await server.app.db
      .updateTable('webhook_endpoint')
      .set({ secret: SECRET, secret_sealed: null })
      .where('id', '=', endpointId)
      .execute();
    await server.app.workers.webhooks.stop();
    await server.app.workers.webhooks.start();
    const sealed = await stored(endpointId);
    expect(sealed.secret).toBe('');
    expect(sealed.secret_sealed).toMatch(/^v1:/);
    expect(sealed.secret_sealed).not.toBe(row.secret_sealed);

    await org.post('/announcements', { title: 'sealed', body: '<p>sealed</p>' });
    const [delivery] = await waitFor(() => (receiver.received.length > 0 ? receiver.received : undefined));
    const timestamp = String(delivery!.headers['x-crewplan-timestamp']);
    expect(delivery!.headers['x-crewplan-signature']).toBe(sign(timestamp, delivery!.body));
  });
});

describe('DELETE /webhooks/{id} (extension)', () => {
  it('removes the endpoint; it is then a 404, also for another organization', async () => {
    const org = await server.newOrg();
    const other = await server.newOrg();
    const id = await register(org, 'https://example.com/hooks');
    await expectNotFoundForOtherOrg(other, 'GET', `/webhooks/${id}`);
    await expectNotFoundForOtherOrg(other, 'DELETE', `/webhooks/${id}`);
    expect((await other.get('/webhooks')).body).toEqual([]);
    await expectNotFoundForOtherOrg(other, 'GET', `/webhooks/${id}/deliveries`);
    const response = await org.del(`/webhooks/${id}`);
    expect(response).toSucceed(200, 'Webhook removed successfully.');
    const again = await org.get(`/webhooks/${id}`);
    expect(again).toBeNotFound('Webhook');
    expect((await org.get('/webhooks')).body).toEqual([]);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'DELETE', '/webhooks/1');
    await expectAuthRequired(server, 'GET', '/webhooks/1');
  });
});

describe('webhook delivery through the outbox', () => {
  it('delivers every event to a receiver that was down, in order, with unique ids and valid signatures', async () => {
    const org = await server.newOrg();
    const before = await org.post('/announcements', { body: '<p>before registration</p>' });
    expect(before.status).toBe(201);

    const receiver = new Receiver();
    receivers.push(receiver);
    await receiver.listen();
    const port = receiver.port;
    await receiver.close(); // down: connections are refused
    const endpointId = await register(org, `http://127.0.0.1:${port}/hooks`);

    const first = await org.post('/announcements', { title: 'One', body: '<p>1</p>' });
    const ids = [first.body.id as number];
    expect((await org.put(`/announcements/${ids[0]}`, { title: 'One b', body: '<p>1b</p>' })).status).toBe(200);
    ids.push((await org.post('/announcements', { title: 'Two', body: '<p>2</p>' })).body.id);
    expect((await org.del(`/announcements/${ids[1]}`)).status).toBe(200);
    const rejected = await org.post('/announcements', { body: '<p>x</p>', admin_id: 999999 });
    expect(rejected.status).toBe(422);

    const failures = await deliveriesWhen(org, endpointId, (log) => log.length >= 2);
    expect(failures[0]).toEqual({
      id: expect.any(Number),
      event_id: expect.any(String),
      event_type: 'announcement.created',
      attempt: expect.any(Number),
      state: 'failed',
      response_status: null,
      error: expect.stringContaining('ECONNREFUSED'),
      duration_ms: expect.any(Number),
      created_at: expect.any(String),
    });
    expect(receiver.received).toHaveLength(0);
    const waiting = await org.get(`/webhooks/${endpointId}`);
    expect(waiting.body.failed_attempts).toBeGreaterThanOrEqual(2);

    await receiver.listen(port); // back up
    await waitFor(() => receiver.received.length >= 4 || undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(4);

    const events = receiver.received.map(({ headers, body }) => {
      const timestamp = String(headers['x-crewplan-timestamp']);
      expect(headers['x-crewplan-signature']).toBe(sign(timestamp, body));
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
      expect(headers['content-type']).toBe('application/json');
      const parsed = JSON.parse(body);
      expect(headers['x-crewplan-event-id']).toBe(parsed.id);
      expect(headers['x-crewplan-event-type']).toBe(parsed.type);
      return parsed;
    });
    expect(events.map((event) => [event.type, event.data.entity_id])).toEqual([
      ['announcement.created', String(ids[0])],
      ['announcement.updated', String(ids[0])],
      ['announcement.created', String(ids[1])],
      ['announcement.deleted', String(ids[1])],
    ]);
    expect(new Set(events.map((event) => event.id)).size).toBe(4);
    // time-ordered UUIDs (version 7): in the order of the events
    for (const event of events)
      expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(events.map((event) => event.id)).toEqual(events.map((event) => event.id).sort());
    expect(events[1]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'announcement.updated',
      created_at: expect.any(String),
      organization_id: org.orgId,
      data: {
        entity_type: 'announcement',
        entity_id: String(ids[0]),
        description: `API client ${org.clientId} updated announcement One b.`,
        actor: { user_id: null, name: `API client ${org.clientId}`, client_id: org.clientId },
        before: { title: 'One', body: '<p>1</p>' },
        after: { title: 'One b', body: '<p>1b</p>' },
      },
    });
    expect(Number(receiver.received[0].headers['x-crewplan-delivery-attempt'])).toBeGreaterThanOrEqual(3);

    const log = await deliveriesWhen(
      org,
      endpointId,
      (rows) => rows.filter((d) => d.state === 'delivered').length >= 4,
    );
    expect(
      log
        .filter((d) => d.state === 'delivered')
        .map((d) => d.event_id)
        .reverse(),
    ).toEqual(events.map((event) => event.id));
    expect((await org.get(`/webhooks/${endpointId}`)).body).toMatchObject({
      failed_attempts: 0,
      next_attempt_at: null,
    });
  });

  it("sends only the subscribed event types and only the organization's own events", async () => {
    const org = await server.newOrg();
    const other = await server.newOrg();
    const receiver = await newReceiver();
    await register(org, receiver.url, { event_types: ['bulletin_board.*'] });
    const admin = await org.createUser();
    const otherAdmin = await other.createUser();
    await org.post('/announcements', { body: '<p>not subscribed</p>' });
    await other.put('/bulletin_board', { admin_id: otherAdmin, content: '<p>other org</p>' });
    await org.put('/bulletin_board', { admin_id: admin, content: '<p>ours</p>' });
    await waitFor(() => receiver.received.length >= 1 || undefined);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(
      receiver.received.map((r) => JSON.parse(r.body)).map((e) => [e.type, e.organization_id, e.data.after]),
    ).toEqual([['bulletin_board.updated', org.orgId, { content: '<p>ours</p>' }]]);
  });

  it('gives up on an event after the last retry and goes on with the next', async () => {
    const org = await server.newOrg();
    const receiver = await newReceiver();
    let calls = 0;
    receiver.status = () => (++calls <= 8 ? 500 : 200);
    const endpointId = await register(org, receiver.url);
    await org.post('/announcements', { title: 'lost', body: '<p>1</p>' });
    await org.post('/announcements', { title: 'kept', body: '<p>2</p>' });
    await waitFor(() => receiver.received.length >= 1 || undefined);
    expect(JSON.parse(receiver.received[0].body).data.after.title).toBe('kept');
    const log = await deliveriesWhen(org, endpointId, (rows) => rows.some((d) => d.state === 'delivered'));
    expect(log.map((d) => [d.state, d.attempt, d.response_status]).reverse()).toEqual([
      ['failed', 1, 500],
      ['failed', 2, 500],
      ['failed', 3, 500],
      ['failed', 4, 500],
      ['failed', 5, 500],
      ['failed', 6, 500],
      ['failed', 7, 500],
      ['abandoned', 8, 500],
      ['delivered', 1, 200],
    ]);
  });

  it('never makes a request, or another endpoint, wait for a receiver that does not answer', async () => {
    const org = await server.newOrg();
    const healthy = await newReceiver();
    const hanging = createServer(() => undefined); // accepts, never responds
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const endpointId = await register(org, `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hooks`);
      await register(org, healthy.url);
      await org.post('/announcements', { body: '<p>first</p>' });
      await new Promise((resolve) => setTimeout(resolve, 500)); // the worker is now waiting on the receiver
      const started = Date.now();
      const response = await org.post('/announcements', { body: '<p>second</p>' });
      expect(response.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(1000);
      await waitFor(() => healthy.received.length >= 2 || undefined);
      expect(healthy.received.map((r) => JSON.parse(r.body).data.after.body)).toEqual([
        '<p>first</p>',
        '<p>second</p>',
      ]);
      expect((await org.get(`/webhooks/${endpointId}/deliveries`)).body).toEqual([]);
    } finally {
      hanging.closeAllConnections();
      hanging.close();
    }
  });

  it('pages the delivery log with before_id and limit', async () => {
    const org = await server.newOrg();
    const receiver = await newReceiver();
    const endpointId = await register(org, receiver.url);
    for (const n of [1, 2, 3]) await org.post('/announcements', { body: `<p>${n}</p>` });
    await waitFor(() => receiver.received.length >= 3 || undefined);
    const all = await deliveriesWhen(org, endpointId, (log) => log.length === 3);
    const page = await org.get(`/webhooks/${endpointId}/deliveries`, { query: { limit: 1, before_id: all[0].id } });
    expect(page.body).toEqual([{ ...all[1], id: all[1].id }]);
  });

  it('requires a token for the delivery log', async () => {
    await expectAuthRequired(server, 'GET', '/webhooks/1/deliveries');
  });
});
