import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { DEMO_PASSWORD, seedDemoOrganization } from './demo-org.js';

/**
 * The web app in a real browser: Debian's Chromium through playwright-core (never a browser
 * download), against the real server with the built app and the demo organization.
 */
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = join('docs', 'screenshots');

if (!existsSync(CHROMIUM)) console.warn(`test/e2e/webapp.test.ts skipped: ${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`);

interface ScheduleJson {
  days: Array<{
    assignments: Array<{ minimum_staffing: number; qualifiers_needed: Array<{ id: number; minimum_staffing: number }>; shifts: Array<{ qualifiers: Array<{ id: number }> }> }>;
  }>;
}

/** Independent count of the (assignment, day) cells short of staffing or of a required qualifier. */
function shortCells(schedule: ScheduleJson): number {
  return schedule.days
    .flatMap((day) => day.assignments)
    .filter(
      (a) =>
        a.shifts.length < a.minimum_staffing ||
        a.qualifiers_needed.some((q) => a.shifts.filter((s) => s.qualifiers.some((sq) => sq.id === q.id)).length < q.minimum_staffing),
    ).length;
}

/** The document's scroll width and the viewport's width (the test code has no DOM types). */
function pageWidths(page: Page): Promise<[number, number]> {
  return page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]') as Promise<[number, number]>;
}

const pad = (n: number) => String(n).padStart(2, '0');
const now = new Date();
const monthStart = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-01`;
const monthEnd = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(new Date(now.getFullYear(), now.getMonth() + 1, 0).getDate())}`;
const monthTitle = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' }).format(now);

describe.skipIf(!existsSync(CHROMIUM))('web app in Chromium', () => {
  let server: TestServer;
  let orgId: number;
  let context: BrowserContext;
  let page: Page;
  let profile: string;

  /** GET through the page's own session, as the app does. */
  const apiGet = <T>(path: string): Promise<T> =>
    page.evaluate(async (url) => (await fetch(url, { headers: { 'X-Crewplan-Session': '1' } })).json(), path) as Promise<T>;

  /** Waits until the section under this heading shows its content, not its loading line (a `p.status`). */
  async function waitForLoaded(titleId: string): Promise<void> {
    await page.locator(`#${titleId} ~ .cards, #${titleId} ~ p:not(.status)`).first().waitFor();
  }

  async function signIn(username: string): Promise<number> {
    await page.goto(`${server.url}/app/`);
    await page.getByLabel('Organization number').fill(String(orgId));
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    const started = performance.now();
    await page.getByLabel('Password').press('Enter');
    await page.locator('table.board tbody tr').first().waitFor();
    return performance.now() - started;
  }

  beforeAll(async () => {
    if (!existsSync(join('web', 'dist', 'index.html'))) execFileSync('npm', ['run', '--silent', 'build:web'], { stdio: 'inherit' });
    server = await startServer();
    orgId = (await seedDemoOrganization(server)).orgId;
    profile = mkdtempSync(join(tmpdir(), 'crewplan-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 900 } });
    page = context.pages()[0] ?? (await context.newPage());
    if (SCREENSHOTS) mkdirSync(SCREENSHOT_DIR, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await server?.close();
  });

  it('signs in (by keyboard) and renders the month by assignment, with shortages marked as the API says', async () => {
    await page.goto(`${server.url}/app/`);
    await page.getByLabel('Organization number').focus();
    await page.keyboard.type(String(orgId));
    await page.keyboard.press('Tab');
    await page.keyboard.type('dana.whitfield');
    await page.keyboard.press('Tab');
    await page.keyboard.type(DEMO_PASSWORD);
    const started = performance.now();
    await page.keyboard.press('Enter');
    await page.locator('table.board tbody tr').first().waitFor();
    const elapsed = performance.now() - started;
    console.log(`web app: month rendered ${elapsed.toFixed(0)} ms after sign-in (demo organization)`);

    await expect(page.locator('#board-title').textContent()).resolves.toBe(monthTitle);
    const rows = await page.locator('table.board tbody th[scope=row]').allTextContents();
    expect(rows).toEqual(expect.arrayContaining(['Engine 1', 'Engine 2', 'Ladder 1', 'Medic 1', 'Time off']));
    expect(await page.locator('table.board thead th').count()).toBe(Number(monthEnd.slice(8)) + 1);
    expect(await page.locator('li.shift.recurring').count()).toBeGreaterThan(0);

    const schedule = await apiGet<ScheduleJson>(`/v1/schedule?start=${monthStart}%2000:00:00&end=${monthEnd}%2023:59:59`);
    expect(await page.locator('table.board td.short').count()).toBe(shortCells(schedule));
    const shifts = schedule.days.flatMap((d) => d.assignments).reduce((n, a) => n + a.shifts.length, 0);
    expect(await page.locator('table.board li.shift').count()).toBe(shifts);
  });

  it('shows day labels and visual cycle colours on the day headers', async () => {
    const day = `${monthStart.slice(0, 8)}14`;
    const write = (method: string, path: string, body: unknown) =>
      page.evaluate(
        async ([m, p, b]) => (await fetch(p, { method: m, headers: { 'X-Crewplan-Session': '1', 'Content-Type': 'application/json' }, body: JSON.stringify(b) })).status,
        [method, path, body] as const,
      );
    expect(await write('PUT', `/v1/day_labels/${day}`, { label: 'Inspection', color: '#FDE68A' })).toBeLessThan(300);
    expect(await write('POST', '/v1/visual_cycles', { name: 'Pay period 1', start: monthStart, end: `${monthStart.slice(0, 8)}14`, color: '#7C3AED', text_color: '#FFFFFF' })).toBeLessThan(300);
    await page.getByRole('button', { name: 'next month' }).click();
    await page.getByRole('button', { name: 'previous month' }).click();
    const header = page.locator('table.board thead th', { hasText: 'Inspection' });
    await header.waitFor();
    expect(await header.locator('.date').textContent()).toBe('14');
    expect(await page.locator('table.board thead th[title="cycle Pay period 1"]').count()).toBe(14);
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOT_DIR, 'month.png'), fullPage: true });
  });

  it('shows an error with Try again when the schedule cannot be loaded, and recovers', async () => {
    await page.route('**/v1/schedule?**', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ status: 503, error: 'unavailable', error_message: 'The database is not reachable.' }) }),
    );
    try {
      await page.getByRole('button', { name: 'next month' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toContain('The database is not reachable.');
    } finally {
      await page.unroute('**/v1/schedule?**');
    }
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.locator('table.board tbody tr').first().waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('button', { name: 'previous month' }).click();
    await page.locator('#board-title', { hasText: monthTitle }).waitFor();
  });

  it('switches to the week view: seven days', async () => {
    await page.getByRole('button', { name: 'Week view' }).click();
    await page.locator('table.board.week').waitFor();
    expect(await page.locator('table.board thead th').count()).toBe(8);
    await page.getByRole('button', { name: 'Month view' }).click();
    await page.locator('table.board.month').waitFor();
  });

  it('approves a pending request from the time off queue', async () => {
    await page.getByRole('link', { name: 'Time off' }).click();
    const approve = page.getByRole('button', { name: /^Approve / });
    await approve.first().waitFor();
    const before = await approve.count();
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOT_DIR, 'time-off-queue.png'), fullPage: true });
    const label = (await approve.first().getAttribute('aria-label')) ?? '';
    await approve.first().click();
    await expect.poll(() => approve.count()).toBe(before - 1);
    expect(await page.getByRole('button', { name: label }).count()).toBe(0);
    const logs = await apiGet<{ data: Array<{ event_description: string }> }>('/v1/logs');
    expect(logs.data[0].event_description).toMatch(/^Dana Whitfield approved time off/);
  });

  it('signs up for an event and withdraws', async () => {
    await page.getByRole('link', { name: 'Sign-ups' }).click();
    const signUp = page.getByRole('button', { name: 'Sign up for Station open house' });
    await signUp.click();
    const withdraw = page.getByRole('button', { name: 'Withdraw from Station open house' });
    await withdraw.waitFor();
    const events = await apiGet<Array<{ id: number; title: string }>>('/v1/signup_events');
    const openHouse = events.find((e) => e.title === 'Station open house')!;
    const users = await apiGet<Array<{ user: { name: string } }>>(`/v1/signup_events/${openHouse.id}/users`);
    expect(users.map((u) => u.user.name)).toContain('Dana Whitfield');
    await withdraw.click();
    await signUp.waitFor();
  });

  it('lists callbacks with who was contacted', async () => {
    await page.getByRole('link', { name: 'Callbacks' }).click();
    await page.locator('#callbacks-title').waitFor();
    await waitForLoaded('callbacks-title');
    const callbacks = await apiGet<{ data: Array<{ id: number }> }>('/v1/callbacks');
    let contacted = 0;
    for (const callback of callbacks.data) contacted += (await apiGet<unknown[]>(`/v1/callbacks/${callback.id}/users`)).length;
    expect(contacted).toBeGreaterThan(0);
    expect(await page.locator('table.contacts tbody tr').count()).toBe(contacted);
    expect(await page.locator('table.contacts tbody td').first().textContent()).not.toMatch(/^user \d+$/);
  });

  it('prints the month without navigation and with the whole grid', async () => {
    await page.getByRole('link', { name: 'Month' }).click();
    await page.locator('table.board.month').waitFor();
    // about an A4 landscape page at 96 dpi less the 8 mm margins
    await page.setViewportSize({ width: 1060, height: 750 });
    await page.emulateMedia({ media: 'print' });
    try {
      expect(await page.locator('header.top').isVisible()).toBe(false);
      expect(await page.locator('.legend').isVisible()).toBe(false);
      expect(await page.locator('.print-header').isVisible()).toBe(true);
      const [pageWidth, paperWidth] = await pageWidths(page);
      expect(pageWidth).toBeLessThanOrEqual(paperWidth);
      expect(await page.locator('table.board li.shift').first().isVisible()).toBe(true);
      if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOT_DIR, 'print-month.png'), fullPage: true });
    } finally {
      await page.emulateMedia({ media: 'screen' });
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });

  it('is usable at phone width: navigation wraps, the grid scrolls inside its box', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.getByRole('link', { name: 'Week' }).click();
      await page.locator('table.board.week').waitFor();
      const [pageWidth] = await pageWidths(page);
      expect(pageWidth).toBeLessThanOrEqual(390);
      expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
      if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOT_DIR, 'phone-week.png'), fullPage: true });
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });

  it('gives a member their own requests but no queue: request by the form, then cancel', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Username').waitFor();
    const elapsed = await signIn('sam.oconnell');
    console.log(`web app: month rendered ${elapsed.toFixed(0)} ms after sign-in (member)`);
    await page.getByRole('link', { name: 'Time off' }).click();
    await page.locator('#own-title').waitFor();
    expect(await page.locator('#queue-title').count()).toBe(0);
    await waitForLoaded('own-title');

    const me = await apiGet<{ user: { id: number } }>('/app/session');
    const cancel = page.getByRole('button', { name: 'Cancel request' });
    const requestDay = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const before = await cancel.count();
    await page.getByLabel('Type').selectOption({ label: 'Vacation' });
    await page.getByLabel('From').fill(`${requestDay}T07:00`);
    await page.getByLabel('To').fill(`${requestDay}T19:00`);
    await page.getByLabel('Note').fill('e2e request');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect.poll(() => cancel.count()).toBe(before + 1);
    const own = await apiGet<Array<{ id: string; status: string; user_note: string | null }>>(`/v1/users/${me.user.id}/time_offs?start=${requestDay}%2000:00:00&end=${requestDay}%2023:59:59`);
    expect(own.map((t) => [t.status, t.user_note])).toEqual([['0', 'e2e request']]);

    await page.locator('li.card', { hasText: 'e2e request' }).getByRole('button', { name: 'Cancel request' }).click();
    await expect.poll(() => cancel.count()).toBe(before);
    expect(await apiGet<unknown[]>(`/v1/users/${me.user.id}/time_offs?start=${requestDay}%2000:00:00&end=${requestDay}%2023:59:59`)).toEqual([]);

    await page.getByRole('link', { name: 'My schedule' }).click();
    await waitForLoaded('mine-title');
    const from = (days: number) => new Date(Date.now() + days * 86_400_000);
    const local = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    const upcoming = await apiGet<{ days: Array<{ assignments: Array<{ shifts: Array<{ user: { id: number } }> }> }> }>(
      `/v1/schedule?start=${local(from(0))}%2000:00:00&end=${local(from(27))}%2023:59:59`,
    );
    const myShifts = upcoming.days.flatMap((d) => d.assignments.flatMap((a) => a.shifts)).filter((shift) => shift.user.id === me.user.id).length;
    expect(myShifts).toBeGreaterThan(0);
    expect(await page.locator('#mine-title ~ .cards p', { hasText: /\((rotation|one-off)\)/ }).count()).toBe(myShifts);

    const listing = await page.evaluate(async () => (await fetch('/v1/time_offs?start=2020-01-01%2000:00:00&end=2020-01-02%2000:00:00', { headers: { 'X-Crewplan-Session': '1' } })).status);
    expect(listing).toBe(403);
  });
});
