import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallbackRunner } from '../../src/resources/callbacks/runner/runner.js';
import { DEMO_USERS } from '../../src/resources/users/seed.js';
import {
  addDays,
  axeViolations,
  type BoardBrowser,
  CHROMIUM,
  DEMO_ZONE,
  HAS_CHROMIUM,
  orgToday,
  pageApi,
  pageWidths,
  period,
  signIn as openBoard,
  startBoardBrowser,
} from './browser.js';
import { DEMO_PASSWORD, seedDemoOrganization } from './demo-org.js';

/**
 * A member on a phone (375 px) answers the trades offered to them from the Trades view (issue 37,
 * docs/workflows.md#trades-offered-to-me), and the callback offer's banner and My offers fit the
 * phone's width (issue 40). The demo's own shifts of the coming days are traded: any date works.
 */
if (!HAS_CHROMIUM) console.warn(`test/e2e/trade-offers.test.ts skipped: ${CHROMIUM} is missing`);

type User = { user_id: number; username: string; full_name: string };
type Shift = { user: { id: number }; start: string; end: string };
type Day = { date: string; assignments: Array<{ id: number; shifts: Shift[] }> };

describe.skipIf(!HAS_CHROMIUM)('trades offered to a member, on a phone', () => {
  let board: BoardBrowser;
  let orgId: number;
  let users: User[];
  const [admin, owner, taker, other, notOffered] = [0, 4, 5, 6, 7].map((i) => DEMO_USERS[i]!.username);
  const api = <T>(path: string, method = 'GET', body?: unknown) => pageApi(board.page)<T>(path, method, body);
  const idOf = (username: string) => users.find((u) => u.username === username)!.user_id;

  async function signInAs(username: string, view = 'trades'): Promise<void> {
    await board.context.clearCookies();
    await openBoard(board.page, board.server.url, orgId, username, DEMO_PASSWORD);
    await board.page.getByRole('navigation', { name: 'Views' }).waitFor();
    await board.page.goto(`${board.server.url}/app/#/${view}`);
  }

  /** The owner's shifts from tomorrow on, as GET /schedule gives them (the demo's rotation). */
  async function shiftsOfOwner(): Promise<Array<{ start: string; end: string }>> {
    const from = addDays(orgToday(), 1);
    const schedule = await api<{ days: Day[] }>(`/v1/schedule?${period(from, addDays(from, 20))}`);
    return schedule.body.days.flatMap((day) =>
      day.assignments.flatMap((a) => a.shifts.filter((s) => s.user.id === idOf(owner))),
    );
  }

  beforeAll(async () => {
    board = await startBoardBrowser({ width: 375, height: 800 });
    orgId = (await seedDemoOrganization(board.server, DEMO_ZONE)).orgId;
  }, 60_000);

  afterAll(async () => {
    await board?.close();
  });

  it('the offered member accepts one trade and declines another; others never see them', async () => {
    await signInAs(owner);
    users = (await api<User[]>('/v1/users')).body;
    const [first, second] = await shiftsOfOwner();
    expect(first && second, 'the demo owner has two shifts in the coming three weeks').toBeTruthy();
    const request = async (shift: { start: string; end: string }) => {
      const trade = await api<{ id: number }>('/v1/trades', 'POST', {
        requesting_user: idOf(owner),
        start: shift.start,
        end: shift.end,
        offered_user_ids: [idOf(taker), idOf(other)],
        approving_user_id: idOf(admin),
      });
      expect(trade.status, JSON.stringify(trade.body)).toBe(201);
      return trade.body.id;
    };
    const [accepted, declined] = [await request(first!), await request(second!)];

    await signInAs(notOffered);
    await board.page.getByText('No trade is offered to you.').waitFor();

    await signInAs(taker);
    const cards = board.page.locator('.trade-offers li.card');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(2);
    const ownerName = users.find((u) => u.username === owner)!.full_name;
    expect(await cards.first().locator('.card-title').innerText()).toContain(ownerName);
    const [width, viewport] = await pageWidths(board.page);
    expect(width).toBeLessThanOrEqual(viewport);
    expect(await axeViolations(board.page)).toEqual([]);

    await board.page.locator(`li[data-trade="${accepted}"]`).getByRole('button', { name: 'Accept' }).click();
    await board.page
      .getByRole('status')
      .filter({ hasText: `You accepted trade #${accepted}` })
      .waitFor();
    const acceptedCard = board.page.locator(`li[data-trade="${accepted}"]`);
    await acceptedCard.getByText('You accepted it; an admin approves it.').waitFor();
    await board.page.locator(`li[data-trade="${declined}"]`).getByRole('button', { name: 'Decline' }).click();
    await board.page
      .getByRole('status')
      .filter({ hasText: `You declined trade #${declined}.` })
      .waitFor();
    await board.page.locator(`li[data-trade="${declined}"]`).waitFor({ state: 'detached' });
    expect(await axeViolations(board.page)).toEqual([]);

    const trade = await api<{ status: string; accepting_user: { id: string } }>(`/v1/trades/${accepted}`);
    expect(trade.status).toBe(403); // a member reads no trade by id: checked as the admin below
    await signInAs(admin);
    const read = await api<{ status: string; accepting_user: { id: string } }>(`/v1/trades/${accepted}`);
    expect([read.body.status, read.body.accepting_user.id]).toEqual(['accepted', String(idOf(taker))]);

    // the other offered member no longer sees the trade someone accepted; the declined one is theirs to answer
    await signInAs(other);
    await cards.first().waitFor();
    const listed = await cards.evaluateAll((li) => li.map((l) => l.getAttribute('data-trade')));
    expect(listed).toEqual([String(declined)]);
  });

  it('a trade offered meanwhile (through the API) shows in the open Trades view within 2 s, without navigation', async () => {
    await signInAs(admin);
    users = (await api<User[]>('/v1/users')).body;
    const [, , third] = await shiftsOfOwner();
    expect(third, 'the demo owner has a third shift in the coming three weeks').toBeTruthy();
    // the signed-in app listens to GET /v1/changes (one stream, shared by the open views)
    const streamed = board.page.waitForResponse((r) => r.url().endsWith('/v1/changes'));
    await signInAs(notOffered, 'agenda');
    await board.page.goto(`${board.server.url}/app/#/trades`);
    await board.page.getByText('No trade is offered to you.').waitFor();
    expect((await streamed).status()).toBe(200);
    // the owner asks through the API, in a session of their own (not the browser's)
    const signedIn = await board.server.request('POST', '/app/session', {
      body: { organization_id: orgId, username: owner, password: DEMO_PASSWORD },
      headers: { 'x-crewplan-session': '1' },
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    const trade = await board.server.request<{ id: number }>('POST', '/v1/trades', {
      headers: { cookie: (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!, 'x-crewplan-session': '1' },
      body: {
        requesting_user: idOf(owner),
        start: third!.start,
        end: third!.end,
        offered_user_ids: [idOf(notOffered)],
        approving_user_id: idOf(admin),
      },
    });
    expect(trade.status, trade.text).toBe(201);
    const made = Date.now();
    await board.page.locator(`li[data-trade="${trade.body.id}"]`).waitFor({ timeout: 2000 });
    console.log(`trades offered to me: the new trade showed ${Date.now() - made} ms after it was made`);
    expect(await board.page.getByText('No trade is offered to you.').count()).toBe(0);
    expect(await axeViolations(board.page)).toEqual([]);
  });

  it("the callback offer's banner and My offers fit 375 px", async () => {
    await signInAs(admin);
    const member = idOf(notOffered);
    const assignments = (await api<Array<{ id: number; name: string }>>('/v1/assignments')).body;
    const list = await api<{ id: number }>('/v1/lists', 'POST', {
      name: 'Phone overtime list with a long name',
      contact_window_minutes: 60,
    });
    expect((await api(`/v1/users/${member}/titles`, 'PUT', { ids: [list.body.id] })).status).toBe(200);
    const day = addDays(orgToday(), 9);
    const started = await api<{ id: number }>('/v1/callbacks', 'POST', {
      list_id: list.body.id,
      initiated_by: idOf(admin),
      assignment_id: assignments.find((a) => a.name === 'Ladder 1')!.id,
      start: `${day} 07:00:00`,
      end: `${addDays(day, 1)} 07:00:00`,
      positions_to_fill: 1,
      deadline: `${addDays(day, -1)}T00:00:00+00:00`,
      notes: 'Bring your own gear and report to the battalion chief at the station on arrival',
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const runner = createCallbackRunner(board.server.app, { baseUrl: board.server.url });
    expect((await runner.runOnce(new Date().toISOString())).contacted).toBeGreaterThanOrEqual(1);
    await runner.stop();

    await signInAs(notOffered, 'agenda');
    const banner = board.page.locator('section.offer-banner');
    await banner.locator('.countdown').waitFor();
    const fits = () =>
      board.page.evaluate(`(() => {
        const banner = document.querySelector('section.offer-banner');
        const box = banner ? banner.getBoundingClientRect() : { right: 0 };
        return [document.documentElement.scrollWidth, window.innerWidth, Math.ceil(box.right)];
      })()`) as Promise<[number, number, number]>;
    const [width, viewport, right] = await fits();
    expect(width).toBeLessThanOrEqual(viewport);
    expect(right).toBeLessThanOrEqual(viewport);
    expect(await axeViolations(board.page)).toEqual([]);

    await board.page.goto(`${board.server.url}/app/#/offers`);
    const card = board.page.locator('#offers-title ~ .cards li.card').first();
    expect(await card.locator('.countdown').innerText()).toMatch(/^\d+ min \d+ s left$/);
    const [offersWidth, offersViewport] = await pageWidths(board.page);
    expect(offersWidth).toBeLessThanOrEqual(offersViewport);
    expect(await axeViolations(board.page)).toEqual([]);
  });

  it('lays the request forms out for a phone: fields stacked, "Whole days" beside its checkbox', async () => {
    await signInAs(owner);
    const trade = board.page.locator('form.request-form');
    await trade.waitFor();
    const box = async (label: string) => (await trade.getByLabel(label).boundingBox())!;
    const [worked, approved] = [await box('Worked by'), await box('Approved by')];
    // stacked: "Approved by" below "Worked by", both as wide as the form, inside the phone's width
    expect(approved.y).toBeGreaterThanOrEqual(worked.y + worked.height);
    expect(Math.abs(approved.x - worked.x)).toBeLessThanOrEqual(1);
    expect(worked.x + worked.width).toBeLessThanOrEqual(375);
    await board.page.screenshot({ path: '/tmp/trades-request-375.png', fullPage: true });
    const [width, viewport] = await pageWidths(board.page);
    expect(width).toBeLessThanOrEqual(viewport);

    await board.page.goto(`${board.server.url}/app/#/time-off`);
    const form = board.page.locator('form', { has: board.page.locator('#request-title') });
    const whole = form.getByLabel('Whole days');
    await whole.waitFor();
    // the checkbox and the box of the label's words (its text node) read in one go: the view may still move
    // (its lists arrive and are read again at each change) between two separate reads
    const { check, words } = (await board.page.evaluate(`(() => {
      const label = document.querySelector('form label.check');
      const input = label.querySelector('input[type=checkbox]') ?? document.getElementById(label.htmlFor);
      const text = [...label.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
      const range = document.createRange();
      range.selectNode(text[text.length - 1]);
      const r = range.getBoundingClientRect();
      const c = input.getBoundingClientRect();
      return { check: { x: c.x, y: c.y, width: c.width, height: c.height }, words: { x: r.x, y: r.y, height: r.height } };
    })()`)) as {
      check: { x: number; y: number; width: number; height: number };
      words: { x: number; y: number; height: number };
    };
    const type = (await form.getByLabel('Type').boundingBox())!;
    // one line: the checkbox left of its words, their middles level; the checkbox at the fields' left edge
    expect(words.x).toBeGreaterThan(check.x + check.width - 1);
    expect(Math.abs(words.y + words.height / 2 - (check.y + check.height / 2))).toBeLessThanOrEqual(4);
    expect(Math.abs(check.x - type.x)).toBeLessThanOrEqual(2);
    await form.screenshot({ path: '/tmp/time-off-request-375.png' });
    const [timeOffWidth, timeOffViewport] = await pageWidths(board.page);
    expect(timeOffWidth).toBeLessThanOrEqual(timeOffViewport);
    expect(await axeViolations(board.page)).toEqual([]);
  });
});
