import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssignment } from '../../src/resources/rotations/test-fixtures.js';
import { createCallbackRunner } from '../../src/resources/callbacks/runner/runner.js';
import type { TestOrg, TestServer } from '../helpers/server.js';
import { CHROMIUM, signIn, type BoardBrowser, startBoardBrowser } from './browser.js';

/** The board acts on callbacks (issue 39): an admin cancels and records a phoned answer; a member's banner. */
const PASSWORD = 'secret-password';
/** A date `days` from now: the Callbacks view lists callbacks from last week to 90 days ahead. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

if (!existsSync(CHROMIUM)) console.warn(`test/e2e/callback-board.test.ts skipped: ${CHROMIUM} is missing`);

describe.skipIf(!existsSync(CHROMIUM))('callback actions and the offer banner in Chromium', () => {
  let server: TestServer;
  let org: TestOrg;
  let page: Page;
  let board: BoardBrowser;
  const ids = { admin: 0, ann: 0, ben: 0, sam: 0, board: 0, offered: 0 };
  const names = new Map<number, string>();

  beforeAll(async () => {
    board = await startBoardBrowser();
    ({ server, page } = board);
    org = await server.newOrg({ name: 'Station Board Callbacks' });
    ids.admin = await org.createUser({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
    ids.ann = await org.createUser({ first_name: 'Ann', last_name: 'Phone', role: 'Firefighter' });
    ids.ben = await org.createUser({ first_name: 'Ben', last_name: 'Wait', role: 'Firefighter' });
    ids.sam = await org.createUser({ first_name: 'Sam', last_name: 'Banner', role: 'Firefighter' });
    for (const u of (await org.get('/users')).body as Array<{ user_id: number; username: string }>)
      names.set(u.user_id, u.username);
    const stationId = await createAssignment(org, {
      name: 'Engine 6',
      start: `${inDays(1)} 07:00:00`,
      end: `${inDays(2)} 07:00:00`,
    });
    const list = async (name: string, members: number[]) => {
      const created = await org.post('/lists', { name, contact_window_minutes: 60, contact_at_once: 1 });
      for (const id of members)
        expect((await org.put(`/users/${id}/titles`, { ids: [created.body.id] })).status).toBe(200);
      return created.body.id as number;
    };
    const start = async (listId: number, date: string) => {
      const started = await org.post('/callbacks', {
        list_id: listId,
        initiated_by: ids.admin,
        assignment_id: stationId,
        start: `${date} 07:00:00`,
        end: `${date} 19:00:00`,
        positions_to_fill: 1,
        deadline: '2036-01-01T00:00:00+00:00',
      });
      expect(started.status, started.text).toBe(201);
      return started.body.id as number;
    };
    ids.board = await start(await list('Board list', [ids.ann, ids.ben]), inDays(10));
    ids.offered = await start(await list('Banner list', [ids.sam]), inDays(12));
    const runner = createCallbackRunner(server.app, { baseUrl: server.url });
    expect(await runner.runOnce(new Date().toISOString())).toEqual({ contacted: 2 });
    await runner.stop();

    page.setDefaultTimeout(8000);
  }, 120_000);

  afterAll(async () => {
    await board?.close();
  });

  it('an admin records a phoned-in answer and cancels the callback from the board', async () => {
    await signIn(page, server.url, org.orgId, names.get(ids.admin)!, PASSWORD);
    await page.getByRole('link', { name: 'Callbacks' }).click();
    await page.locator('#callbacks-title ~ .cards').waitFor({ timeout: 20_000 });
    const card = page.locator('#callbacks-title ~ .cards li.card').filter({ hasText: 'Board list' });
    await card.locator('caption', { hasText: /^Contacted$/ }).waitFor();
    const contacted = card.locator('table', { has: page.locator('caption', { hasText: /^Contacted$/ }) });
    expect(await contacted.locator('tbody tr').count()).toBe(1);
    expect(await contacted.locator('tbody tr').textContent()).toContain('Ann Phone');
    const waiting = card.locator('table', { has: page.locator('caption', { hasText: 'Not contacted' }) });
    expect(await waiting.locator('tbody tr').textContent()).toContain('waiting');

    await card.getByRole('button', { name: 'Ann Phone declined by phone' }).click();
    await contacted.locator('tbody tr', { hasText: 'denied' }).waitFor();
    expect(await contacted.locator('tbody tr').textContent()).toContain('Phone');
    let users = (await org.get(`/callbacks/${ids.board}/users`)).body as Array<Record<string, string>>;
    expect(users.find((u) => u.id === String(ids.ann))).toMatchObject({ status: 'denied', contact_method: 'Phone' });

    page.once('dialog', (dialog) => void dialog.accept());
    await card.getByRole('button', { name: 'Cancel callback' }).click();
    await page.getByText('Board list · cancelled').waitFor();
    expect((await org.get(`/callbacks/${ids.board}`)).body.status).toBe('cancelled');
    users = (await org.get(`/callbacks/${ids.board}/users`)).body as Array<Record<string, string>>;
    expect(users.find((u) => u.id === String(ids.ben))?.status).toBe('pending');
    await page.getByRole('button', { name: 'Sign out' }).click();
  });

  it('a member sees the badge and the banner with its countdown, and accepts from the banner', async () => {
    await signIn(page, server.url, org.orgId, names.get(ids.sam)!, PASSWORD);
    const link = page.getByRole('link', { name: /My offers/ });
    await link.locator('.badge').waitFor();
    expect((await link.locator('.badge').textContent())?.trim()).toBe('1 open');
    const banner = page.getByRole('region', { name: 'Callback offer' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Banner list, Engine 6');
    expect(await banner.locator('.countdown').textContent()).toMatch(/^\d+ min \d+ s left$/);

    await banner.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('status').filter({ hasText: 'You accepted the callback.' }).waitFor();
    expect((await org.get(`/callbacks/${ids.offered}`)).body.status).toBe('filled');
    await expect(link.locator('.badge').count()).resolves.toBe(0);
  });

  it('live: new offers reach the open banner and My offers, and a phoned answer the Callbacks view, within 2 s', async () => {
    const listId = (await org.post('/lists', { name: 'Live list', contact_window_minutes: 60, contact_at_once: 1 }))
      .body.id as number;
    expect((await org.put(`/users/${ids.sam}/titles`, { ids: [listId] })).status).toBe(200);
    const stationId = (await org.get(`/callbacks/${ids.offered}`)).body.assignment_id as number;
    /** A callback of the list on that day, offered to Sam by the runner. */
    const offerToSam = async (date: string) => {
      const started = await org.post('/callbacks', {
        list_id: listId,
        initiated_by: ids.admin,
        assignment_id: stationId,
        start: `${date} 07:00:00`,
        end: `${date} 19:00:00`,
        positions_to_fill: 1,
        deadline: '2036-01-01T00:00:00+00:00',
      });
      expect(started.status, started.text).toBe(201);
      const runner = createCallbackRunner(server.app, { baseUrl: server.url });
      expect(await runner.runOnce(new Date().toISOString())).toEqual({ contacted: 1 });
      await runner.stop();
      return started.body.id as number;
    };
    // Sam is still signed in, on the board: the banner comes without navigation
    const first = await offerToSam(inDays(14));
    const banner = page.getByRole('region', { name: 'Callback offer' });
    await banner.waitFor({ timeout: 2000 });
    expect(await banner.textContent()).toContain('Live list');
    // and on My offers, the next offer is listed without navigation
    await page.getByRole('link', { name: /My offers/ }).click();
    const offers = page.locator('#offers-title ~ ul li.card');
    await offers.first().waitFor();
    expect(await offers.count()).toBe(1);
    await offerToSam(inDays(15));
    await expect.poll(() => offers.count(), { timeout: 2000, interval: 50 }).toBe(2);
    await page.getByRole('button', { name: 'Sign out' }).click();

    // the admin watches the Callbacks view while Sam answers by phone (through the API)
    await signIn(page, server.url, org.orgId, names.get(ids.admin)!, PASSWORD);
    await page.getByRole('link', { name: 'Callbacks' }).click();
    // the first one's card: "Dec 12 07:00" as the board writes its start
    const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${inDays(14)}T00:00:00Z`),
    );
    const card = page
      .locator('#callbacks-title ~ .cards li.card')
      .filter({ hasText: 'Live list' })
      .filter({ hasText: `${day} 07:00` });
    const contacted = card.locator('table', { has: page.locator('caption', { hasText: /^Contacted$/ }) });
    await contacted.locator('tbody tr', { hasText: 'pending' }).waitFor({ timeout: 20_000 });
    const answered = await org.post(`/callbacks/${first}/users`, { user_id: ids.sam, status: 'denied' });
    expect(answered.status, answered.text).toBe(200);
    await contacted.locator('tbody tr', { hasText: 'denied' }).waitFor({ timeout: 2000 });
  });
});
