import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import {
  addDays,
  CHROMIUM,
  CHROMIUM_FLAGS,
  DEMO_ZONE,
  focusRing,
  HAS_CHROMIUM,
  orgToday,
  period,
  tabTo,
} from './browser.js';
import { DEMO_PASSWORD, seedDemoOrganization } from './demo-org.js';

/**
 * Every action of the board by keyboard only (Tab, Enter, Space, arrows, Escape; the mouse is never
 * used): swap two shifts, mark sick, start a callback (shown on its seat), add a note, approve and
 * deny in the time off queue; and the focus ring's contrast (≥ 3:1) on each background it meets.
 * Days are chosen from the engine's schedule relative to the organization's today (any day of the
 * year: the swap's two days are in one month view, the board is navigated to them).
 */
if (!HAS_CHROMIUM)
  console.warn(`test/e2e/board-keyboard.test.ts skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

interface Shift {
  id: number;
  start: string;
  end: string;
  user: { id: number; name: string };
  qualifiers: Array<{ id: number }>;
}
interface Post {
  id: number;
  name: string;
  shifts: Shift[];
  staffing: { needed: number; open: number; qualifier_shortfalls: unknown[] };
}
interface Day {
  date: string;
  assignments: Post[];
  notes: string[];
  time_off: Array<{ user: { id: number } }>;
}
type Logs = { data: Array<{ event_description: string }> };

const short = (a: Post) => a.staffing.open > 0 || a.staffing.qualifier_shortfalls.length > 0;

describe.skipIf(!HAS_CHROMIUM)('every board action by keyboard, and a focus ring that reads', () => {
  let server: TestServer;
  let orgId: number;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  /** the focus rings measured along the way, by where they were */
  const rings: Record<string, Awaited<ReturnType<typeof focusRing>>> = {};

  const apiGet = <T>(path: string): Promise<T> =>
    page.evaluate(
      async (url) => (await fetch(url, { headers: { 'X-Crewplan-Session': '1' } })).json(),
      path,
    ) as Promise<T>;
  const latestLog = async () => (await apiGet<Logs>('/v1/logs')).data[0].event_description;
  const days = async (start: string, end: string) =>
    (await apiGet<{ days: Day[] }>(`/v1/schedule?${period(start, end)}`)).days;
  const post = async (date: string, id: number) =>
    (await days(date, date))[0].assignments.find((a) => a.id === id) as Post;
  /** a time off entry's status (0 pending, 1 approved, 2 denied), from its first segment */
  const statusOf = async (id: number) =>
    String((await apiGet<{ items: Array<{ status: number | string }> }>(`/v1/time_offs/${id}`)).items[0]?.status);
  const isFocused = (selector: string) =>
    page.evaluate(`document.activeElement === document.querySelector(${JSON.stringify(selector)})`) as Promise<boolean>;
  const measure = async (where: string) => {
    rings[where] = await focusRing(page);
  };
  async function showMonthOf(date: string): Promise<void> {
    await page.evaluate(`location.hash = "#/month/${date}"`);
    await page.locator(`.calendar li.day[data-date="${date}"]`).waitFor();
  }

  beforeAll(async () => {
    if (!existsSync(join('web', 'dist', 'index.html')))
      execFileSync('npm', ['run', '--silent', 'build:web'], { stdio: 'inherit' });
    server = await startServer();
    orgId = (await seedDemoOrganization(server, DEMO_ZONE)).orgId;
    profile = mkdtempSync(join(tmpdir(), 'crewplan-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1280, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    // signing in by keyboard too: the fields and Enter
    await page.goto(`${server.url}/app/#/month`);
    await page.getByLabel('Organization number').focus();
    await page.keyboard.type(String(orgId));
    await page.keyboard.press('Tab');
    await page.keyboard.type('dana.whitfield');
    await page.keyboard.press('Tab');
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.locator('.calendar li.day').first().waitFor();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await server?.close();
  }, 60_000);

  it('swaps two people’s shifts by keyboard: both moved on the board without a reload, and a log row', async () => {
    // a post worked by P on day D and by T on D+1 (both to come, one month view), each free on the other day
    const today = orgToday();
    const week = await days(addDays(today, 1), addDays(today, 8));
    // the same qualifications (the trade checks both ways that the seat's qualifiers stay held)
    const held = new Map<number, string>();
    const qualifications = async (userId: number) => {
      if (!held.has(userId)) {
        const list = await apiGet<Array<{ id: number | string }>>(`/v1/users/${userId}/qualifiers`);
        held.set(
          userId,
          list
            .map((q) => String(q.id))
            .sort()
            .join(','),
        );
      }
      return held.get(userId);
    };
    let found: { d: string; next: string; post: Post; giver: Shift; taker: Shift } | undefined;
    for (const [i, day] of week.slice(0, -1).entries()) {
      const next = week[i + 1];
      if (day.date.slice(0, 7) !== next.date.slice(0, 7)) continue;
      const working = (d: Day) => new Set(d.assignments.flatMap((a) => a.shifts.map((s) => s.user.id)));
      const off = (d: Day) => new Set(d.time_off.map((t) => t.user.id));
      for (const assignment of day.assignments) {
        const later = next.assignments.find((a) => a.id === assignment.id);
        for (const giver of assignment.shifts)
          for (const taker of later?.shifts ?? []) {
            const fits =
              !found &&
              !working(day).has(taker.user.id) &&
              !off(day).has(taker.user.id) &&
              !working(next).has(giver.user.id) &&
              !off(next).has(giver.user.id);
            if (fits && (await qualifications(giver.user.id)) === (await qualifications(taker.user.id)))
              found = { d: day.date, next: next.date, post: assignment, giver, taker };
          }
      }
      if (found) break;
    }
    expect(found).toBeDefined();
    const { d, next, post: target, giver, taker } = found as NonNullable<typeof found>;
    await showMonthOf(d);
    const cellOf = (date: string) =>
      page.locator(`.calendar li.day[data-date="${date}"] .post[data-assignment="${target.id}"]`);
    const chip = cellOf(d).locator(`li.shift[title^="${giver.user.name},"] button.person`);
    await chip.focus();
    await measure('chip in a day cell');
    await page.keyboard.press('Enter');
    const panel = page.locator('aside.panel');
    await panel.getByRole('button', { name: 'Move shift' }).waitFor();
    expect(await isFocused('#panel-title')).toBe(true);

    // the taker: arrows in the closed select until it holds them
    await tabTo(page, (label) => label.startsWith('Give the shift to'));
    await measure('select in the panel');
    const taking = panel.getByLabel('Give the shift to');
    for (let i = 0; i < 200 && (await taking.inputValue()) !== String(taker.user.id); i++)
      await page.keyboard.press('ArrowDown');
    expect(await taking.inputValue()).toBe(String(taker.user.id));
    // in return: the taker's shift on the next day (past the part-shift From and Until fields)
    await tabTo(page, (label) => label.startsWith('In return'));
    const back = panel.getByLabel('In return');
    for (let i = 0; i < 40 && (await back.inputValue()) !== `${taker.start}/${taker.end}`; i++)
      await page.keyboard.press('ArrowDown');
    expect(await back.inputValue()).toBe(`${taker.start}/${taker.end}`);
    await page.keyboard.press('Tab');
    expect(await isFocused('aside.panel button[type="submit"].primary')).toBe(true);
    expect(await panel.locator('button[type="submit"].primary').textContent()).toBe('Swap shifts');
    await measure('primary button in the panel');
    await page.keyboard.press('Enter');
    await panel.locator('.done, .error').first().waitFor();
    const status = panel.getByRole('status').filter({ hasText: /^Swapped: / });
    expect(await panel.locator('.done, .error').first().textContent()).toMatch(/^Swapped: /);
    expect(await status.textContent()).toMatch(
      new RegExp(`^Swapped: ${taker.user.name} works .*, ${giver.user.name} works .* \\(trade #\\d+\\)\\.$`),
    );
    // both moved on the board (no reload: the page's own state changes)
    await cellOf(d).locator(`li.shift[title^="${taker.user.name},"]`).waitFor();
    await cellOf(next).locator(`li.shift[title^="${giver.user.name},"]`).waitFor();
    expect(await cellOf(d).locator(`li.shift[title^="${giver.user.name},"]`).count()).toBe(0);
    expect(await cellOf(next).locator(`li.shift[title^="${taker.user.name},"]`).count()).toBe(0);
    // and in the API, with the trade filled and logged
    expect((await post(d, target.id)).shifts.map((s) => s.user.id)).toContain(taker.user.id);
    expect((await post(next, target.id)).shifts.map((s) => s.user.id)).toContain(giver.user.id);
    const id = Number(/trade #(\d+)/.exec((await status.textContent()) ?? '')?.[1]);
    const trade = await apiGet<{ status: string; swap_start: string | null }>(`/v1/trades/${id}`);
    expect(trade.status).toBe('filled');
    expect(trade.swap_start?.slice(0, 19).replace('T', ' ')).toBe(taker.start);
    expect(await latestLog()).toMatch(new RegExp(`^Dana Whitfield approved trade #${id} .*; the trade is filled\\.$`));
    // the focus stayed on the button; Escape closes the panel and returns to the board
    expect(await isFocused('aside.panel button[type="submit"].primary')).toBe(true);
    await page.keyboard.press('Escape');
    expect(await panel.count()).toBe(0);
    expect(await isFocused('#board-title')).toBe(true);
  }, 90_000);

  let sickSeat: { date: string; assignmentId: number } | undefined;

  it('marks a person sick by keyboard: Tab to Mark sick, Enter; the panel shows the open seat', async () => {
    const today = orgToday();
    const week = await days(addDays(today, 2), addDays(today, 8));
    let found: { date: string; post: Post } | undefined;
    for (const day of week) {
      const candidate = day.assignments.find((a) => !short(a) && a.shifts.length > 0 && a.staffing.needed > 0);
      if (candidate) {
        found = { date: day.date, post: candidate };
        break;
      }
    }
    expect(found).toBeDefined();
    const { date, post: target } = found as NonNullable<typeof found>;
    const person = target.shifts[0].user;
    await showMonthOf(date);
    const chip = page.locator(
      `.calendar li.day[data-date="${date}"] .post[data-assignment="${target.id}"] li.shift[title^="${person.name},"] button.person`,
    );
    await chip.focus();
    await page.keyboard.press('Space');
    const panel = page.locator('aside.panel');
    await panel.getByRole('button', { name: 'Mark sick' }).waitFor();
    expect(await page.keyboard.press('Tab').then(() => isFocused('aside.panel .panel-head button'))).toBe(true);
    await measure('Close in the panel');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Mark sick');
    await page.keyboard.press('Enter');
    // the panel turns to the seat, its heading focused, the result announced
    await panel
      .getByRole('status')
      .filter({ hasText: `${person.name} marked sick` })
      .waitFor();
    await page.getByRole('heading', { name: /^Open seat, / }).waitFor();
    expect(await isFocused('#panel-title')).toBe(true);
    expect((await post(date, target.id)).staffing.open).toBe(target.staffing.open + 1);
    const seat = page.locator(`.calendar button.open-seat[data-assignment="${target.id}"][data-date="${date}"]`);
    await seat.waitFor();
    await seat.focus();
    await measure('open seat on a short post');
    expect(await latestLog()).toMatch(new RegExp(`^Dana Whitfield .*${person.name}`));
    await page.keyboard.press('Escape');
    expect(await panel.count()).toBe(0);
    sickSeat = { date, assignmentId: target.id };
  }, 60_000);

  it('starts a callback by keyboard and shows it on its seat (the callback’s assignment_id)', async () => {
    const { date, assignmentId } = sickSeat as NonNullable<typeof sickSeat>;
    const seat = page.locator(`.calendar button.open-seat[data-assignment="${assignmentId}"][data-date="${date}"]`);
    await seat.focus();
    await page.keyboard.press('Enter');
    const panel = page.locator('aside.panel');
    const start = panel.getByRole('button', { name: 'Start callback' });
    await start.waitFor();
    await expect.poll(() => start.isEnabled()).toBe(true);
    await tabTo(page, (label) => label === 'Start callback');
    await page.keyboard.press('Enter');
    const status = panel.getByRole('status').filter({ hasText: /^Callback #\d+ started on / });
    await status.waitFor();
    const id = Number(/#(\d+)/.exec((await status.textContent()) ?? '')?.[1]);
    const callback = await apiGet<{ status: string; assignment_id: number | null; start: string }>(
      `/v1/callbacks/${id}`,
    );
    expect(callback).toMatchObject({ status: 'active', assignment_id: assignmentId });
    expect(await latestLog()).toMatch(new RegExp(`^Dana Whitfield started callback #${id} `));
    // on its seat, not in the day's header
    const onSeat = page.locator(
      `.calendar li.day[data-date="${date}"] .post[data-assignment="${assignmentId}"] .seat-callback[data-callback="${id}"]`,
    );
    await onSeat.waitFor();
    expect(await onSeat.textContent()).toContain(`Callback #${id} `);
    expect(await page.locator('.calendar .day-callback', { hasText: `#${id} ` }).count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(await isFocused(`.calendar button.open-seat[data-assignment="${assignmentId}"][data-date="${date}"]`)).toBe(
      true,
    );
  }, 60_000);

  it('adds a note by keyboard: Tab to the field, type, Tab, Enter', async () => {
    const { date } = sickSeat as NonNullable<typeof sickSeat>;
    const chip = page.locator(`.calendar li.day[data-date="${date}"] button.person`).first();
    await chip.focus();
    await page.keyboard.press('Enter');
    const panel = page.locator('aside.panel');
    await panel.getByRole('button', { name: 'Add note' }).waitFor();
    await tabTo(page, (label) => label.startsWith('New note'));
    await measure('text field in the panel');
    await page.keyboard.type('Keyboard note: pump test 0900');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Add note');
    await page.keyboard.press('Enter');
    await panel.getByRole('status').filter({ hasText: 'Note added to' }).waitFor();
    await page.locator(`.calendar li.day[data-date="${date}"] .day-note`, { hasText: 'Keyboard note' }).waitFor();
    expect((await days(date, date))[0].notes).toContain('Keyboard note: pump test 0900');
    expect(await latestLog()).toBe(`API client web:dana.whitfield added a note to ${date}.`);
    await page.keyboard.press('Escape');
    expect(await panel.count()).toBe(0);
  }, 60_000);

  it('approves and denies in the time off queue by keyboard; focus goes on to the next request', async () => {
    await page.evaluate('location.hash = "#/time-off"');
    const cards = page.locator('ul.queue > li.card');
    await cards.first().waitFor();
    const before = await cards.count();
    expect(before).toBeGreaterThan(1);
    await page.locator('#queue-title').focus();
    const approve = await tabTo(page, (label) => label.startsWith('Approve '));
    await measure('primary button on a queue card');
    const first = Number(await cards.first().getAttribute('data-time-off'));
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: `Approved: ${approve.replace('Approve ', '')}.` })
      .waitFor();
    await expect.poll(() => cards.count()).toBe(before - 1);
    expect(await statusOf(first)).toBe('1');
    // the focus moved on to the request now first, its Approve button
    expect(await page.evaluate('document.activeElement.getAttribute("aria-label")')).toMatch(/^Approve /);
    const second = Number(await cards.first().getAttribute('data-time-off'));
    await page.keyboard.press('Tab');
    const deny = (await page.evaluate('document.activeElement.getAttribute("aria-label")')) as string;
    expect(deny).toMatch(/^Deny /);
    await measure('button on a queue card');
    await page.keyboard.press('Space');
    await page
      .getByRole('status')
      .filter({ hasText: `Denied: ${deny.replace('Deny ', '')}.` })
      .waitFor();
    await expect.poll(() => cards.count()).toBe(before - 2);
    expect(await statusOf(second)).toBe('2');
    expect(
      await page.evaluate('document.activeElement.getAttribute("aria-label") ?? document.activeElement.id'),
    ).toMatch(/^(Approve |queue-title)/);
  }, 60_000);

  it('shows a focus ring of at least 3:1 against every colour it meets (top bar, page, cells, panel, cards)', async () => {
    // the dark top bar and the page's grey
    await page.locator('.top nav a').first().focus();
    await measure('link on the dark top bar');
    await page.locator('.top nav a[aria-current="page"]').focus();
    await measure('current link (white) on the top bar');
    await page.evaluate('location.hash = "#/month"');
    await page.locator('.calendar li.day').first().waitFor();
    await page.locator('.toolbar button').first().focus();
    await measure('toolbar button on the page');
    await page.evaluate('location.hash = "#/week"');
    await page.locator('table.board').waitFor();
    await page.locator('.board td button.person').first().focus();
    await measure('chip in a week cell');
    for (const [where, ring] of Object.entries(rings)) {
      expect({ where, ...ring }).toMatchObject({ where, focusVisible: true, style: 'solid' });
      expect(ring.width, where).toBeGreaterThanOrEqual(2);
      expect(ring.background, `${where}: ring against the background`).toBeGreaterThanOrEqual(3);
      expect(ring.halo, `${where}: ring against its halo`).toBeGreaterThanOrEqual(3);
    }
    expect(Object.keys(rings).length).toBeGreaterThanOrEqual(10);
    console.log(
      `focus ring contrast: ${Object.entries(rings)
        .map(([where, ring]) => `${where} ${ring.background}:1 (halo ${ring.halo}:1)`)
        .join('; ')}`,
    );
  }, 60_000);
});
