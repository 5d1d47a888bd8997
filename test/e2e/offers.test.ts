import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssignment } from '../../src/resources/rotations/test-fixtures.js';
import { createCallbackRunner } from '../../src/resources/callbacks/runner/runner.js';
import type { TestOrg, TestServer } from '../helpers/server.js';
import { axeViolations, CHROMIUM, signIn, type BoardBrowser, startBoardBrowser } from './browser.js';

/** "My offers" in a real browser: a member answers a callback offer from the board (docs/webapp.md). */
const PASSWORD = 'secret-password';

if (!existsSync(CHROMIUM)) console.warn(`test/e2e/offers.test.ts skipped: ${CHROMIUM} is missing`);

describe.skipIf(!existsSync(CHROMIUM))('my offers in Chromium', () => {
  let server: TestServer;
  let org: TestOrg;
  let page: Page;
  let board: BoardBrowser;
  let memberId: number;
  let callbackId: number;
  let username: string;

  beforeAll(async () => {
    board = await startBoardBrowser();
    ({ server, page } = board);
    org = await server.newOrg({ name: 'Station Offers' });
    const adminId = await org.createUser({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
    memberId = await org.createUser({ first_name: 'Sam', last_name: 'Able', role: 'Firefighter' });
    const users = (await org.get('/users')).body as Array<{ user_id: number; username: string }>;
    username = users.find((u) => u.user_id === memberId)!.username;
    const stationId = await createAssignment(org, {
      name: 'Engine 5',
      start: '2035-05-01 07:00:00',
      end: '2035-05-02 07:00:00',
    });
    const list = await org.post('/lists', { name: 'Offers list', contact_window_minutes: 60 });
    expect((await org.put(`/users/${memberId}/titles`, { ids: [list.body.id] })).status).toBe(200);
    const started = await org.post('/callbacks', {
      list_id: list.body.id,
      initiated_by: adminId,
      assignment_id: stationId,
      start: '2035-05-10 07:00:00',
      end: '2035-05-11 07:00:00',
      positions_to_fill: 1,
      deadline: '2036-01-01T00:00:00+00:00',
    });
    expect(started.status, started.text).toBe(201);
    callbackId = started.body.id;
    const runner = createCallbackRunner(server.app, { baseUrl: server.url });
    expect(await runner.runOnce(new Date().toISOString())).toEqual({ contacted: 1 });
    await runner.stop();
  }, 120_000);

  afterAll(async () => {
    await board?.close();
  });

  it('shows the member their open offer, accepts it (the shift is placed), with no serious axe violation', async () => {
    await signIn(page, server.url, org.orgId, username, PASSWORD);
    await page.getByRole('link', { name: 'My offers' }).click();
    await page.locator('#offers-title ~ .cards').waitFor();

    const card = page.locator('#offers-title ~ .cards li.card');
    expect(await card.count()).toBe(1);
    expect(await card.locator('.card-title').textContent()).toContain('Offers list, Engine 5');
    expect(await axeViolations(page)).toEqual([]);

    await card.getByRole('button', { name: 'Accept' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'You accepted the callback.' }).textContent(),
    ).resolves.toBe('You accepted the callback.');
    await page.getByText('No open callback offers.').waitFor();

    const callback = await org.get(`/callbacks/${callbackId}`);
    expect(callback.body.status).toBe('filled');
    const users = (await org.get(`/callbacks/${callbackId}/users`)).body as Array<Record<string, string>>;
    expect(users.map((u) => [u.id, u.status])).toEqual([[String(memberId), 'accepted']]);
    const schedule = await org.get('/schedule', {
      query: { start: '2035-05-10 00:00:00', end: '2035-05-10 23:59:59' },
    });
    const day = schedule.body.days.find((d: { date: string }) => d.date === '2035-05-10');
    const onDuty = day.assignments.flatMap((a: { shifts: Array<{ user: { id: number } }> }) =>
      a.shifts.map((s) => s.user.id),
    );
    expect(onDuty).toContain(memberId);
    expect(await axeViolations(page)).toEqual([]);
  });
});
