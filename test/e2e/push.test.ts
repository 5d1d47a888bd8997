import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decrypt } from 'http_ece';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCallbackRunner } from '../../src/resources/callbacks/runner/runner.js';
import { createAssignment } from '../../src/resources/rotations/test-fixtures.js';
import { startServer, type TestOrg, type TestServer } from '../helpers/server.js';
import { CHROMIUM, CHROMIUM_FLAGS as FLAGS, fillSignIn } from './browser.js';

/**
 * Web Push from the installed board in a real browser (docs/webapp.md, "Installing and push";
 * what is not covered and why: docs/workflows.md, "Web Push"). Chromium's own
 * `pushManager.subscribe` needs its vendor's push service (FCM) on the network, so the page's
 * subscription is a fabricated one whose endpoint is a push service on loopback and whose keys
 * the test holds: the board's own code asks for permission, subscribes with the server's VAPID key
 * and sends the subscription; the server stores it; the runner pushes the offer to the loopback
 * endpoint; the decrypted message is handed to the board's service worker (DevTools protocol,
 * as a push service would), which shows it with Accept and Decline.
 */
const PASSWORD = 'secret-password';
const STORED = 'crewplan-test-push-key';

if (!existsSync(CHROMIUM)) console.warn(`test/e2e/push.test.ts skipped: ${CHROMIUM} is missing`);

interface PushRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * Replaces the browser's PushManager: `subscribe` records the application server key it is given
 * (base64url, in localStorage) and answers with `subscription`; `getSubscription` answers it once
 * subscribed. Evaluated in the page before its own scripts.
 */
const fakePushManager = (subscription: object) => `(() => {
  const fake = ${JSON.stringify(subscription)};
  const made = () => ({
    endpoint: fake.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true },
    toJSON: () => fake,
    unsubscribe: async () => { localStorage.removeItem('${STORED}'); return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    const text = btoa(String.fromCharCode(...key)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
    localStorage.setItem('${STORED}', text);
    return made();
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem('${STORED}') ? made() : null;
  };
})();`;

describe.skipIf(!existsSync(CHROMIUM))('Web Push in Chromium', () => {
  let push: Server;
  let pushUrl: string;
  let ca: string;
  const received: PushRequest[] = [];
  let server: TestServer;
  let org: TestOrg;
  let memberId: number;
  let username: string;
  let listId: number;
  let stationId: number;
  let adminId: number;
  const profiles: string[] = [];
  const contexts: BrowserContext[] = [];

  async function browser(): Promise<{ context: BrowserContext; page: Page }> {
    const profile = mkdtempSync(join(tmpdir(), 'crewplan-chromium-'));
    profiles.push(profile);
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      viewport: { width: 1280, height: 900 },
    });
    contexts.push(context);
    await context.grantPermissions(['notifications'], { origin: server.url });
    return { context, page: context.pages()[0] ?? (await context.newPage()) };
  }

  /** The board's service worker as the page sees it: script, scope and state. */
  const workerOf = (page: Page) =>
    page.evaluate(`navigator.serviceWorker.ready.then((r) => ({
      script: r.active && r.active.scriptURL, scope: r.scope, state: r.active && r.active.state }))`);

  beforeAll(async () => {
    if (!existsSync(join('web', 'dist', 'index.html')))
      execFileSync('npm', ['run', '--silent', 'build:web'], { stdio: 'inherit' });
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
        response.writeHead(201).end();
      });
    });
    await new Promise<void>((resolve) => push.listen(0, '127.0.0.1', resolve));
    pushUrl = `https://127.0.0.1:${(push.address() as AddressInfo).port}`;
    server = await startServer({
      push: { subject: 'mailto:dispatch@crewplan.test', publicKey: undefined, privateKey: undefined },
      webhookAllowPrivate: true,
    });
    org = await server.newOrg({ name: 'Station Push' });
    adminId = await org.createUser({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
    memberId = await org.createUser({ first_name: 'Sam', last_name: 'Able', role: 'Firefighter' });
    const users = (await org.get('/users')).body as Array<{ user_id: number; username: string }>;
    username = users.find((u) => u.user_id === memberId)!.username;
    stationId = await createAssignment(org, {
      name: 'Engine 6',
      start: '2035-07-01 07:00:00',
      end: '2035-07-02 07:00:00',
    });
    const list = await org.post('/lists', { name: 'Push list', contact_window_minutes: 60 });
    listId = list.body.id;
    expect((await org.put(`/users/${memberId}/titles`, { ids: [listId] })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    for (const profile of profiles) rmSync(profile, { recursive: true, force: true });
    await server?.close();
    await new Promise<void>((resolve) => (push ? push.close(() => resolve()) : resolve()));
  });

  it('the board subscribes with the server key, the offer is pushed, the service worker shows it', async () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const subscription = {
      endpoint: `${pushUrl}/devices/board`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    };
    const { context, page } = await browser();
    await context.addInitScript(fakePushManager(subscription));

    await page.goto(`${server.url}/app/`);
    // the board registers its service worker at start, before anyone signs in
    await vi.waitFor(
      async () =>
        expect(await workerOf(page)).toEqual({
          script: `${server.url}/app/sw.js`,
          scope: `${server.url}/app/`,
          state: 'activated',
        }),
      { timeout: 15_000, interval: 100 },
    );
    await fillSignIn(page, org.orgId, username, PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('link', { name: 'My offers' }).click();
    await page.getByText('Get your callback offers on this device as notifications.').waitFor();
    await page.getByRole('button', { name: 'Notify me on this device' }).click();
    await page.getByRole('status').filter({ hasText: 'Notifications are on.' }).waitFor();
    await page.getByText('This device gets your callback offers as notifications.').waitFor();

    // the page subscribed with the server's VAPID key, and the server stored what the page sent
    const key = (await org.get('/push/key')).body.public_key as string;
    expect(await page.evaluate(`localStorage.getItem('${STORED}')`)).toBe(key);
    const stored = await org.get(`/users/${memberId}/push_subscriptions`);
    expect(stored.body).toEqual([
      { id: expect.any(Number), endpoint: subscription.endpoint, created_at: expect.any(String) },
    ]);

    // a callback: the runner pushes the offer to the loopback endpoint, signed and encrypted for the device
    const started = await org.post('/callbacks', {
      list_id: listId,
      initiated_by: adminId,
      assignment_id: stationId,
      start: '2035-07-10 07:00:00',
      end: '2035-07-11 07:00:00',
      positions_to_fill: 1,
      deadline: '2036-01-01T00:00:00+00:00',
    });
    expect(started.status, started.text).toBe(201);
    const runner = createCallbackRunner(server.app, { baseUrl: server.url, pushAgent: { ca } });
    expect(await runner.runOnce(new Date().toISOString())).toEqual({ contacted: 1 });
    await runner.stop();
    await vi.waitFor(() => expect(received).toHaveLength(1));
    const [request] = received;
    expect(request!.path).toBe('/devices/board');
    expect(request!.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${key}$`));
    const message = decrypt(request!.body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth });
    const payload = JSON.parse(message.toString('utf8'));
    expect(payload.url).toMatch(new RegExp(`^${server.url}/offers/cpo_[\\w-]+$`));
    const users = (await org.get(`/callbacks/${started.body.id}/users`)).body as Array<Record<string, string>>;
    expect(users.map((u) => [u.id, u.contact_method])).toEqual([[String(memberId), 'Mobile App']]);

    // the message as a push service delivers it: the service worker shows it with Accept and Decline
    const cdp: CDPSession = await context.newCDPSession(page);
    const registrations: Array<{ registrationId: string; scopeURL: string; isDeleted: boolean }> = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
    await cdp.send('ServiceWorker.enable');
    await vi.waitFor(() => expect(registrations.some((r) => r.scopeURL === `${server.url}/app/`)).toBe(true), {
      timeout: 15_000,
    });
    const registration = registrations.find((r) => r.scopeURL === `${server.url}/app/` && !r.isDeleted)!;
    // a push delivered before the worker is activated is dropped: on a loaded machine activation can trail registration
    await vi.waitFor(async () => expect(await workerOf(page)).toMatchObject({ state: 'activated' }), {
      timeout: 15_000,
    });
    const errors: unknown[] = [];
    cdp.on('ServiceWorker.workerErrorReported', (event) => errors.push(event.errorMessage));
    const shown = () =>
      page.evaluate(`navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((all) => all.map((n) => ({
        title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url,
        actions: n.actions.map((a) => a.action), requireInteraction: n.requireInteraction })))`);
    // Under load Chromium sometimes drops a push handed over the DevTools protocol (CI failed on it
    // after the worker was activated): delivered again, as a push service retries. The offer's tag
    // makes a second delivery replace the first notification, so one is shown either way.
    for (let attempt = 1; ; attempt += 1) {
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: server.url,
        registrationId: registration.registrationId,
        data: message.toString('utf8'),
      });
      try {
        await vi.waitFor(async () => expect(await shown()).toHaveLength(1), { timeout: 10_000 });
        break;
      } catch {
        if (attempt === 3)
          throw new Error(`no notification after 3 deliveries; worker errors: ${JSON.stringify(errors)}`);
      }
    }
    expect(await shown()).toEqual([
      {
        title: 'Callback offer: 2035-07-10 07:00:00 to 2035-07-11 07:00:00',
        body: payload.body,
        tag: payload.tag,
        url: payload.url,
        actions: ['accept', 'decline'],
        requireInteraction: true,
      },
    ]);

    // what the notification's Accept action opens: the offer page with Accept focused; it fills the callback
    // Chromium runs `autofocus` at its next rendering step, which a loaded machine can put after the load event
    await page.goto(`${payload.url}?answer=accept`);
    await vi.waitFor(
      async () => expect(await page.evaluate('document.activeElement && document.activeElement.value')).toBe('accept'),
      { timeout: 10_000 },
    );
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('heading', { name: 'Accepted' }).waitFor();
    expect((await org.get(`/callbacks/${started.body.id}`)).body.status).toBe('filled');
  }, 120_000);

  it("Chromium's own pushManager.subscribe with the server key (needs the browser's push service)", async (ctx) => {
    const { page } = await browser();
    await page.goto(`${server.url}/app/`);
    await vi.waitFor(
      async () => expect(await workerOf(page)).toMatchObject({ script: `${server.url}/app/sw.js`, state: 'activated' }),
      { timeout: 15_000, interval: 100 },
    );
    const key = (await org.get('/push/key')).body.public_key as string;
    const outcome = (await page.evaluate(`(async () => {
      const text = atob('${key}'.replace(/-/g, '+').replace(/_/g, '/'));
      const applicationServerKey = Uint8Array.from(text, (c) => c.charCodeAt(0));
      const registration = await navigator.serviceWorker.ready;
      const subscribing = registration.pushManager
        .subscribe({ userVisibleOnly: true, applicationServerKey })
        .then((s) => ({ subscription: s.toJSON() }), (e) => ({ error: e.name + ': ' + e.message }));
      const waited = new Promise((resolve) => setTimeout(() => resolve({ error: 'no answer within 15 s' }), 15000));
      return Promise.race([subscribing, waited]);
    })()`)) as { subscription?: { endpoint: string; keys: Record<string, string> }; error?: string };
    if (outcome.error) {
      // offline (this machine): Chromium's registration with its push service never completes
      ctx.skip(`pushManager.subscribe did not subscribe here: ${outcome.error}`);
      return;
    }
    const created = await org.post(`/users/${memberId}/push_subscriptions`, outcome.subscription);
    expect(created.status, created.text).toBe(201);
  }, 60_000);
});
