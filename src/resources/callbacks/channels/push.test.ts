import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { decrypt } from 'http_ece';
import selfsigned from 'selfsigned';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../../test/helpers/server.js';
import { at, callbackScene, logText, runnerSuite, startCallbackOn, usersOf } from '../test-fixtures.js';

/**
 * A push service on loopback (TLS with a certificate made for the test): records each request, answers 201,
 * or 410 under /gone.
 */
interface PushRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}
let push: Server;
let pushUrl: string;
let ca: string;
const received: PushRequest[] = [];

const suite = runnerSuite({
  start: async () => {
    const pems = selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
      days: 1,
      keySize: 2048,
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    ca = pems.cert;
    push = createServer({ key: pems.private, cert: pems.cert }, (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
        response.writeHead(request.url?.startsWith('/gone') ? 410 : 201).end();
      });
    });
    await new Promise<void>((resolve) => push.listen(0, '127.0.0.1', resolve));
    pushUrl = `https://127.0.0.1:${(push.address() as AddressInfo).port}`;
    return startServer({
      push: { subject: 'mailto:dispatch@crewplan.test', publicKey: undefined, privateKey: undefined },
      webhookAllowPrivate: true,
    });
  },
  after: () => new Promise<void>((resolve) => push.close(() => resolve())),
  pushAgent: () => ({ ca }),
});
let server: TestServer;
let org: TestOrg;
let adminId: number;
let stationId: number;

beforeAll(async () => {
  server = suite.server;
  const chief = { first_name: 'Chief', last_name: 'Push' };
  ({ org, adminId, stationId } = await callbackScene(server, 'Station Push', chief, {
    name: 'Engine 4',
    date: '2033-03-01',
  }));
});

const runner = (options: { withoutPush?: boolean } = {}) => suite.runner(options.withoutPush ? 'push' : undefined);

/** A device's push keys, as a browser makes them: a P-256 key pair and a 16-byte auth secret. */
function device(path: string): { ecdh: ECDH; auth: Buffer; body: Record<string, unknown> } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    body: {
      endpoint: `${pushUrl}${path}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    },
  };
}

async function crewOnList(prefix: string, count: number): Promise<{ ids: number[]; listId: number }> {
  const list = await org.post('/lists', { name: `${prefix} list`, contact_window_minutes: 30 });
  expect(list.status, list.text).toBe(201);
  const ids: number[] = [];
  for (let i = 1; i <= count; i += 1) {
    const id = await org.createUser({ first_name: prefix, last_name: `M${i}` });
    expect((await org.put(`/users/${id}/titles`, { ids: [list.body.id] })).status).toBe(200);
    ids.push(id);
  }
  return { ids, listId: list.body.id };
}

const callbackOn = async (listId: number, date: string) =>
  (await startCallbackOn({ org, adminId, stationId }, listId, date, { deadline: '2036-01-01T00:00:00+00:00' })).id;

describe('GET /push/key', () => {
  it('gives the VAPID public key generated once for the installation', async () => {
    const first = await org.get('/push/key');
    expect(first).toAnswer(200, { enabled: true, public_key: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/) });
    expect(Buffer.from(first.body.public_key, 'base64url')).toHaveLength(65);
    expect((await org.get('/push/key')).body).toEqual(first.body);
  });
});

describe('POST /users/{id}/push_subscriptions', () => {
  it('stores a subscription, lists it and removes it', async () => {
    const userId = await org.createUser({ first_name: 'Sub', last_name: 'Scriber' });
    const created = await org.post(`/users/${userId}/push_subscriptions`, device('/devices/sub').body);
    expect(created).toAnswer(201, {
      id: expect.any(Number),
      endpoint: `${pushUrl}/devices/sub`,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    expect((await org.get(`/users/${userId}/push_subscriptions`)).body).toEqual([created.body]);
    const removed = await org.del(`/users/${userId}/push_subscriptions/${created.body.id}`);
    expect(removed.status).toBe(200);
    expect((await org.get(`/users/${userId}/push_subscriptions`)).body).toEqual([]);
  });

  it('refuses a plain http endpoint and keys of the wrong size, naming the fields', async () => {
    const userId = await org.createUser({ first_name: 'Bad', last_name: 'Keys' });
    const plain = await org.post(`/users/${userId}/push_subscriptions`, {
      ...device('/x').body,
      endpoint: 'http://127.0.0.1:9/x',
    });
    expect(plain.status).toBe(422);
    expect(plain.body.error_message).toEqual(['The endpoint must be an https URL.']);
    const keys = await org.post(`/users/${userId}/push_subscriptions`, {
      endpoint: `${pushUrl}/x`,
      keys: { p256dh: 'AAAA', auth: 'AAAA' },
    });
    expect(keys.status).toBe(422);
    expect(keys.body.error_message).toEqual([
      'The keys p256dh must be a P-256 public key (65 bytes, base64url).',
      'The keys auth must be a 16-byte secret (base64url).',
    ]);
    expect((await org.get(`/users/${userId}/push_subscriptions`)).body).toEqual([]);
    expect((await org.post('/users/999999/push_subscriptions', device('/y').body)).status).toBe(404);
  });
});

describe('the push channel', () => {
  it('pushes the offer to the first candidate (VAPID), moves on after the window, drops a gone one', async () => {
    const { ids, listId } = await crewOnList('Pushed', 2);
    const phone = device('/devices/first');
    expect((await org.post(`/users/${ids[0]}/push_subscriptions`, phone.body)).status).toBe(201);
    expect((await org.post(`/users/${ids[1]}/push_subscriptions`, device('/gone/second').body)).status).toBe(201);
    const id = await callbackOn(listId, '2033-03-10');
    const clock = new Date().toISOString();
    const run = runner();

    expect(await run.runOnce(clock)).toEqual({ contacted: 1 });
    await vi.waitFor(() => expect(received.filter((r) => r.path === '/devices/first')).toHaveLength(1));
    const [request] = received.filter((r) => r.path === '/devices/first');
    const key = (await org.get('/push/key')).body.public_key;
    expect(request.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${key}$`));
    expect(request.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(request.headers.ttl)).toBeGreaterThan(1700);
    expect(request.headers.urgency).toBe('high');
    const payload = JSON.parse(
      decrypt(request.body, { version: 'aes128gcm', privateKey: phone.ecdh, authSecret: phone.auth }).toString('utf8'),
    );
    expect(payload).toEqual({
      title: 'Callback offer: 2033-03-10 07:00:00 to 2033-03-11 07:00:00',
      body: expect.stringContaining('Pushed list: 2033-03-10 07:00:00 to 2033-03-11 07:00:00. Answer by'),
      url: expect.stringMatching(new RegExp(`^${server.url}/offers/cpo_[\\w-]+$`)),
      tag: expect.stringMatching(/^offer:/),
    });
    const page = await server.request('GET', `${payload.url}?answer=accept`, { token: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="accept" autofocus');
    let users = await usersOf(org, id);
    expect(users.map((u) => [u.status, u.contact_method])).toEqual([
      ['pending', 'Mobile App'],
      ['pending', null],
    ]);

    // no answer within the window: the second is offered; their push service says the subscription is gone
    expect(await run.runOnce(at(clock, 31))).toEqual({ contacted: 1 });
    await vi.waitFor(async () => expect((await org.get(`/users/${ids[1]}/push_subscriptions`)).body).toEqual([]));
    users = await usersOf(org, id);
    expect(users.map((u) => [u.status, u.contact_method])).toEqual([
      ['no answer', 'Mobile App'],
      ['pending', 'Mobile App'],
    ]);
    expect(received.filter((r) => r.path === '/gone/second')).toHaveLength(1);
    expect(await logText(org)).toContain('the subscription is gone (410) and was removed');
    expect(received.filter((r) => r.path === '/devices/first')).toHaveLength(1);
  });

  it('is off without VAPID configuration, and the callback record says so', async () => {
    const { ids, listId } = await crewOnList('Unpushed', 1);
    expect((await org.post(`/users/${ids[0]}/push_subscriptions`, device('/devices/unpushed').body)).status).toBe(201);
    const id = await callbackOn(listId, '2033-03-12');
    await runner({ withoutPush: true }).runOnce(new Date().toISOString());
    expect((await usersOf(org, id))[0].contact_time).not.toBeNull();
    const log = await logText(org);
    expect(log).toContain(`offered callback #${id}`);
    expect(log).toContain('push is off: No Web Push contact is configured (VAPID_SUBJECT).');
    expect(received.filter((r) => r.path === '/devices/unpushed')).toEqual([]);
  });
});

describe('the installable board', () => {
  it('serves the web app manifest, its icons and the service worker', async () => {
    const manifest = await server.request('GET', `${server.url}/app/manifest.webmanifest`, { token: null });
    expect(manifest.status).toBe(200);
    const body = JSON.parse(manifest.text);
    expect(body).toMatchObject({ start_url: '/app/#/offers', scope: '/app/', display: 'standalone' });
    for (const icon of body.icons as Array<{ src: string; sizes: string }>) {
      const image = await server.request('GET', `${server.url}${icon.src}`, { token: null });
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
    }
    const worker = await server.request('GET', `${server.url}/app/sw.js`, { token: null });
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toMatch(/javascript/);
    expect(worker.text).toContain("addEventListener('push'");
    expect(worker.text).toContain("addEventListener('notificationclick'");
    const index = await server.request('GET', `${server.url}/app`, { token: null });
    expect(index.text).toContain('<link rel="manifest" href="/app/manifest.webmanifest" />');
  });
});
