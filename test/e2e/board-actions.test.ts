import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { axeViolations, CHROMIUM, CHROMIUM_FLAGS, HAS_CHROMIUM, pageWidths, signIn as openBoard } from './browser.js';
import { DEMO_PASSWORD, seedDemoOrganization } from './demo-org.js';

/**
 * Acting from the board (callback, move, note, fill and mark sick, by mouse and by keyboard), the
 * phone's agenda and the printed month, in Debian's Chromium against the real server and the demo
 * organization. `UPDATE_SCREENSHOTS=1` rewrites the agenda and side panel screenshots.
 * Dates come from the organization's today and the engine's vacancies, and the board is navigated
 * to them, so the tests pass on any day of the year (month ends, December to January).
 */
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = join('docs', 'screenshots');

if (!HAS_CHROMIUM)
  console.warn(
    `test/e2e/board-actions.test.ts skipped: ${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`,
  );

interface Post {
  id: number;
  name: string;
  shifts: Array<{ id: number; start: string; end: string; user: { id: number; name: string } }>;
  staffing: { needed: number; open: number; qualifier_shortfalls: unknown[] };
}
interface ScheduleJson {
  days: Array<{ date: string; assignments: Post[]; notes: string[]; time_off: Array<{ user: { id: number } }> }>;
}
type Logs = { data: Array<{ event_description: string }> };

const short = (a: Post) => a.staffing.open > 0 || a.staffing.qualifier_shortfalls.length > 0;
const TIMEZONE = 'America/Chicago';
/** Today in the demo organization's zone (the seed's today). */
const orgToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: TIMEZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** The first day of the month `months` away from the date's month. */
const monthFrom = (date: string, months: number) => {
  const at = new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1 + months, 1));
  return at.toISOString().slice(0, 10);
};
/** Weeks (rows) of a month's calendar, Monday first. */
const weeksOf = (first: string) => {
  const start = new Date(`${first}T00:00:00Z`);
  const length = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0)).getUTCDate();
  return Math.ceil((((start.getUTCDay() + 6) % 7) + length) / 7);
};
/** WCAG contrast of two `rgb(…)` colours, for the test (the page has its own). */
const rgb = (css: string) => (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
const luminance = (css: string) => {
  const [r, g, b] = rgb(css).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
};
const period = (start: string, end: string) => `start=${start}%2000:00:00&end=${end}%2023:59:59`;

describe.skipIf(!HAS_CHROMIUM)('acting from the board, the agenda and print', () => {
  let server: TestServer;
  let orgId: number;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  /** a seat the engine says is open, still to come (the demo's Kelly day vacancies, days 2 to 4 after today) */
  let seatToFill: { date: string; assignmentId: number };

  const apiGet = <T>(path: string): Promise<T> =>
    page.evaluate(
      async (url) => (await fetch(url, { headers: { 'X-Crewplan-Session': '1' } })).json(),
      path,
    ) as Promise<T>;
  const latestLog = async () => (await apiGet<Logs>('/v1/logs')).data[0].event_description;
  const dayOf = async (date: string) => (await apiGet<ScheduleJson>(`/v1/schedule?${period(date, date)}`)).days[0];
  /** The id of the focused element, and its accessible label or text. */
  const focused = () =>
    page.evaluate(`(() => {
      const el = document.activeElement;
      return { id: el?.id ?? '', label: el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '' };
    })()`) as Promise<{ id: string; label: string }>;

  async function signIn(target: Page, username: string, ready: string): Promise<void> {
    await openBoard(target, server.url, orgId, username, DEMO_PASSWORD);
    await target.locator(ready).first().waitFor();
  }

  beforeAll(async () => {
    if (!existsSync(join('web', 'dist', 'index.html')))
      execFileSync('npm', ['run', '--silent', 'build:web'], { stdio: 'inherit' });
    server = await startServer();
    orgId = (await seedDemoOrganization(server)).orgId;
    profile = mkdtempSync(join(tmpdir(), 'crewplan-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1280, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    if (SCREENSHOTS) mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await signIn(page, 'dana.whitfield', '.calendar li.day');
    const today = orgToday();
    const vacancies = await apiGet<Array<{ assignment: { id: number }; date: string; open: number }>>(
      `/v1/vacancies?${period(addDays(today, 1), addDays(today, 7))}`,
    );
    const vacancy = vacancies.find((v) => v.open === 1);
    if (!vacancy) throw new Error('the demo has no vacancy in the coming week');
    seatToFill = { date: vacancy.date, assignmentId: vacancy.assignment.id };
    // the month of that seat (the next month near a month's end)
    await page.evaluate(`location.hash = "#/month/${vacancy.date}"`);
    await page.locator(`.calendar li.day[data-date="${vacancy.date}"]`).waitFor();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await server?.close();
  });

  it('fills an open seat by keyboard only: Enter opens the panel, focus moves in, the vacancy disappears', async () => {
    const { assignmentId, date } = seatToFill;
    const seat = page.locator(`.calendar button.open-seat[data-assignment="${assignmentId}"][data-date="${date}"]`);
    expect(await seat.textContent()).toBe('1 open');
    await seat.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('complementary', { name: /^Open seat/ });
    await panel.waitFor();
    expect((await focused()).id).toBe('panel-title');
    await panel
      .getByRole('button', { name: /^Fill with / })
      .first()
      .waitFor();
    // Tab from the heading: Close, then the first candidate's Fill
    await page.keyboard.press('Tab');
    expect((await focused()).label).toBe('Close');
    await page.keyboard.press('Tab');
    const { label } = await focused();
    expect(label).toMatch(/^Fill with /);
    const name = label.replace('Fill with ', '');
    await page.keyboard.press('Space');
    await panel
      .getByRole('status')
      .filter({ hasText: `${name} placed on` })
      .waitFor();
    await expect
      .poll(() =>
        page.locator(`.calendar button.open-seat[data-assignment="${assignmentId}"][data-date="${date}"]`).count(),
      )
      .toBe(0);
    expect(
      (await dayOf(date)).assignments.find((a) => a.id === assignmentId)?.shifts.map((s) => s.user.name),
    ).toContain(name);
    expect(await apiGet<unknown[]>(`/v1/vacancies?${period(date, date)}&assignment_id=${assignmentId}`)).toEqual([]);
    const log = await latestLog();
    expect(log).toMatch(/^Dana Whitfield scheduled a shift for /);
    expect(log).toContain(name);
    await page.keyboard.press('Escape');
    expect(await panel.count()).toBe(0);
    // the seat is gone: focus continues at the board's title
    expect((await focused()).id).toBe('board-title');
  });

  it('opens a chip with Space and Escape returns focus to the chip', async () => {
    const chip = page.locator('.calendar button.person').first();
    await chip.focus();
    await page.keyboard.press('Space');
    const panel = page.locator('aside.panel');
    await panel.getByRole('button', { name: 'Mark sick' }).waitFor();
    expect((await focused()).id).toBe('panel-title');
    await page.keyboard.press('Escape');
    expect(await panel.count()).toBe(0);
    expect(await chip.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  });

  it('marks a person sick from their chip: the seat opens on the board', async () => {
    const post = page
      .locator('.calendar .post:not(.short):not(.time-off)', { has: page.locator('button.person') })
      .first();
    const assignmentId = Number(await post.getAttribute('data-assignment'));
    const date = (await post.locator('xpath=ancestor::li[contains(@class,"day")]').getAttribute('data-date')) as string;
    const before = (await dayOf(date)).assignments.find((a) => a.id === assignmentId) as Post;
    expect(short(before)).toBe(false);
    const person = post.locator('button.person').first();
    const name = ((await person.locator('xpath=..').getAttribute('title')) ?? '').split(',')[0];
    await person.click();
    const panel = page.locator('aside.panel');
    await panel.getByRole('button', { name: 'Mark sick' }).click();
    await panel
      .getByRole('status')
      .filter({ hasText: `${name} marked sick` })
      .waitFor();
    const after = (await dayOf(date)).assignments.find((a) => a.id === assignmentId) as Post;
    expect(after.staffing.open).toBe(before.staffing.open + 1);
    await page
      .locator(`.calendar button.open-seat[data-assignment="${assignmentId}"][data-date="${date}"]`, {
        hasText: '1 open',
      })
      .waitFor();
    expect(await latestLog()).toMatch(new RegExp(`^Dana Whitfield .*${name}`));
    await page.keyboard.press('Escape');
  });

  it('starts a callback for an open seat: the answer names the vacancy, the board shows the callback', async () => {
    // the last open seat of the month still to come
    const tomorrow = addDays(orgToday(), 1);
    const dates = await page
      .locator('.calendar button.open-seat')
      .evaluateAll((seats) => seats.map((seat) => seat.getAttribute('data-date') ?? ''));
    const date = dates.filter((d) => d >= tomorrow).at(-1) as string;
    expect(date).toBeDefined();
    const seat = page.locator(`.calendar button.open-seat[data-date="${date}"]`).last();
    const assignmentId = Number(await seat.getAttribute('data-assignment'));
    await seat.click();
    const panel = page.locator('aside.panel');
    const start = panel.getByRole('button', { name: 'Start callback' });
    await start.waitFor();
    await expect.poll(() => start.isEnabled()).toBe(true);
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOT_DIR, 'side-panel-seat.png') });
    await start.click();
    const status = panel.getByRole('status').filter({ hasText: /^Callback #\d+ started on / });
    await status.waitFor();
    const id = Number(/#(\d+)/.exec((await status.textContent()) ?? '')?.[1]);
    const callback = await apiGet<{
      status: string;
      start: string;
      initiated_by: { name: string };
      assignment_id: number | null;
    }>(`/v1/callbacks/${id}`);
    expect(callback.status).toBe('active');
    expect(callback.assignment_id).toBe(assignmentId);
    expect(callback.initiated_by.name).toBe('Dana Whitfield');
    expect(callback.start.slice(0, 10)).toBe(date);
    expect(await latestLog()).toMatch(new RegExp(`^Dana Whitfield started callback #${id} `));
    // the seat is what the callback fills: its vacancy says so, and the board shows the callback on the seat
    expect(await status.textContent()).toMatch(/\d+ of \d+ on duty, \d+ open\./);
    await page
      .locator(`.calendar li.day[data-date="${date}"] .post[data-assignment="${assignmentId}"] .seat-callback`, {
        hasText: `#${id} `,
      })
      .waitFor();
    expect(await page.locator('.calendar .day-callback', { hasText: `#${id} ` }).count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it('adds a note to a day: the panel says so, the day shows it, the log has it', async () => {
    const day = page.locator('.calendar li.day', { has: page.locator('button.person') }).nth(3);
    const date = (await day.getAttribute('data-date')) as string;
    await day.locator('button.person').first().click();
    const panel = page.locator('aside.panel');
    await panel.getByLabel('New note').fill('Hydrant testing on Elm & 5th <9:00>');
    await panel.getByRole('button', { name: 'Add note' }).click();
    await panel.getByRole('status').filter({ hasText: 'Note added to' }).waitFor();
    await day.locator('.day-note', { hasText: 'Hydrant testing on Elm & 5th <9:00>' }).waitFor();
    expect((await dayOf(date)).notes).toEqual(['Hydrant testing on Elm &amp; 5th &lt;9:00&gt;']);
    // a request without a user field is logged under the session's client (docs/webapp.md)
    expect(await latestLog()).toBe(`API client web:dana.whitfield added a note to ${date}.`);
    // an empty note is refused in words, and nothing is written
    await panel.getByRole('button', { name: 'Add note' }).click();
    expect(await panel.getByRole('alert').textContent()).toContain('Write the note first.');
    expect((await dayOf(date)).notes).toHaveLength(1);
    // a note is edited and removed by its own id
    await panel.getByRole('button', { name: 'Edit note: Hydrant testing' }).click();
    await panel.getByLabel('Edit note').fill('Hydrant testing moved to 10:00');
    await panel.getByRole('button', { name: 'Save note' }).click();
    await panel.getByRole('status').filter({ hasText: 'Note of' }).waitFor();
    await day.locator('.day-note', { hasText: 'Hydrant testing moved to 10:00' }).waitFor();
    expect((await dayOf(date)).notes).toEqual(['Hydrant testing moved to 10:00']);
    expect(await latestLog()).toBe(`API client web:dana.whitfield changed a note of ${date}.`);
    await panel.getByRole('button', { name: 'Delete note: Hydrant testing moved to 10:00' }).click();
    await panel.getByRole('status').filter({ hasText: 'Note removed from' }).waitFor();
    expect((await dayOf(date)).notes).toEqual([]);
    await page.keyboard.press('Escape');
  });

  it('moves a shift to another person (a trade, filled), and says why when the taker is busy', async () => {
    const today = orgToday();
    const month = await apiGet<ScheduleJson>(`/v1/schedule?${period(addDays(today, 1), addDays(today, 7))}`);
    // a shift still to come (a trade moves work not yet begun) whose day has someone working another post (busy) and someone free
    const users = await apiGet<Array<{ user_id: number; full_name: string }>>('/v1/users');
    let chosen: { date: string; post: Post; shift: Post['shifts'][number]; busy: string } | undefined;
    for (const day of month.days) {
      const working = day.assignments.flatMap((a) => a.shifts.map((s) => s.user.name));
      const post = day.assignments.find((a) => a.shifts.length > 0);
      const busy = post && day.assignments.find((a) => a.id !== post.id && a.shifts.length > 0)?.shifts[0].user.name;
      if (post && busy && new Set(working).size < users.length) {
        chosen = { date: day.date, post, shift: post.shifts[0], busy };
        break;
      }
    }
    expect(chosen).toBeDefined();
    const { date, post, shift, busy } = chosen as NonNullable<typeof chosen>;
    await page.evaluate(`location.hash = "#/month/${date}"`);
    const cell = page.locator(`.calendar li.day[data-date="${date}"] .post[data-assignment="${post.id}"]`);
    const chip = cell.locator(`li.shift[title^="${shift.user.name},"] button.person`);
    await chip.waitFor();
    await chip.click();
    const panel = page.locator('aside.panel');
    await panel.getByLabel('Give the shift to').selectOption({ label: busy });
    // the payback ledger between the two (GET /users/{id}/trade_balance)
    const balanceLine = panel.locator('p.hint', { hasText: 'Trade balance:' });
    await balanceLine.waitFor();
    expect(await balanceLine.textContent()).toMatch(
      new RegExp(`^Trade balance: ${shift.user.name} owes [\\d.]+ h, is owed [\\d.]+ h\\.$`),
    );
    await panel.getByRole('button', { name: 'Move shift' }).click();
    expect(await panel.getByRole('alert').textContent()).toMatch(/cannot take this trade: (already working|lacks)/);
    expect((await dayOf(date)).assignments.find((a) => a.id === post.id)?.shifts.map((s) => s.user.name)).toContain(
      shift.user.name,
    );

    // someone the engine may place: try the people free that day until one is taken
    const day = await dayOf(date);
    const working = new Set(day.assignments.flatMap((a) => a.shifts.map((s) => s.user.id)));
    const off = new Set(day.time_off.map((t) => t.user.id));
    const free = users.filter((u) => !working.has(Number(u.user_id)) && !off.has(Number(u.user_id)));
    let taker: string | undefined;
    for (const candidate of free) {
      await panel.getByLabel('Give the shift to').selectOption({ label: candidate.full_name });
      await panel.getByRole('button', { name: 'Move shift' }).click();
      const outcome = panel.locator('.done, .error').first();
      await outcome.waitFor();
      if ((await outcome.getAttribute('class'))?.includes('done')) {
        taker = candidate.full_name;
        break;
      }
    }
    expect(taker).toBeDefined();
    expect(await panel.getByRole('status').textContent()).toMatch(
      new RegExp(`^Moved: ${taker} works .* instead of ${shift.user.name} \\(trade #\\d+\\)\\.$`),
    );
    const after = (await dayOf(date)).assignments.find((a) => a.id === post.id) as Post;
    expect(after.shifts.map((s) => s.user.name)).toContain(taker);
    expect(after.shifts.map((s) => s.user.name)).not.toContain(shift.user.name);
    await cell.locator(`li.shift[title^="${taker},"]`).waitFor();
    expect(await chip.count()).toBe(0);
    const trades = await apiGet<Array<{ status: string; requesting_user: { name: string } }>>(
      `/v1/trades?start=${date}%2000:00:00&end=${date}%2023:59:59`,
    );
    expect(trades.filter((t) => t.status === 'filled').map((t) => t.requesting_user.name)).toContain(shift.user.name);
    expect(await latestLog()).toMatch(/^Dana Whitfield approved trade #\d+ .*; the trade is filled\.$/);
    await page.keyboard.press('Escape');
    await page.evaluate('location.hash = "#/month"');
    await page.locator('.calendar li.day').first().waitFor();
  }, 60_000);

  it('fits each month the demo covers into 1280 px and prints it on one landscape page, names black on white', async () => {
    const today = orgToday();
    // the months the demo fills (platoon cycles from last month to three months ahead), and the
    // first month of six weeks from last month on (the tightest page), whatever today is
    const months = [-1, 0, 1, 2, 3].map((n) => monthFrom(today, n));
    const sixWeeks = Array.from({ length: 15 }, (_, n) => monthFrom(today, n - 1)).find((m) => weeksOf(m) === 6);
    expect(sixWeeks).toBeDefined();
    if (!months.includes(sixWeeks as string)) months.push(sixWeeks as string);
    for (const first of months) {
      await page.evaluate(`location.hash = "#/month/${first}"`);
      await page.locator(`.calendar li.day[data-date="${first}"]`).waitFor();
      await page.locator('.calendar li.day button.person').first().waitFor();
      expect(await page.locator('.calendar').getAttribute('class')).toBe(`calendar weeks-${weeksOf(first)}`);
      const [width] = await pageWidths(page);
      expect(width, first).toBeLessThanOrEqual(1280);
      // in print, no name is broken inside a word, names read black on white, the header overlaps no day
      await page.emulateMedia({ media: 'print' });
      try {
        expect(
          await page
            .locator('.calendar .chip')
            .evaluateAll((chips) => chips.filter((c) => c.scrollWidth > c.clientWidth + 1).length),
        ).toBe(0);
        const inks = (await page.evaluate(
          `[...document.querySelectorAll('.calendar .chip')].map((c) => [getComputedStyle(c).color, getComputedStyle(c).backgroundColor])`,
        )) as Array<[string, string]>;
        expect(inks.length).toBeGreaterThan(0);
        // 6 pt type on paper: at least 7:1 (WCAG AAA), for every name and time off chip
        expect(Math.min(...inks.map(([ink, background]) => contrast(ink, background))), first).toBeGreaterThanOrEqual(
          7,
        );
        if (first === monthFrom(today, 0)) {
          if (SCREENSHOTS) {
            // an A4 landscape page at 96 dpi less the 6 mm margins
            await page.setViewportSize({ width: 1077, height: 748 });
            await page.screenshot({ path: join(SCREENSHOT_DIR, 'print-month.png'), fullPage: true });
            await page.setViewportSize({ width: 1280, height: 900 });
          }
          expect(await axeViolations(page), 'axe-core on the printed month').toEqual([]);
        }
        const head = await page.locator('.calendar-head').boundingBox();
        const firstDay = await page.locator('.calendar > li').first().boundingBox();
        expect(firstDay?.y).toBeGreaterThanOrEqual((head?.y ?? 0) + (head?.height ?? 0));
      } finally {
        // null, not 'screen': a media type set by emulation would also apply to page.pdf
        await page.emulateMedia({ media: null });
      }
      // and the month takes one A4 landscape page
      const pdf = await page.pdf({ landscape: true, format: 'A4', printBackground: true });
      const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
      expect(pages, `${first} printed on ${pages} pages`).toBe(1);
    }
  }, 240_000);

  it('has no serious or critical axe-core violations on the agenda and the open panels', async () => {
    const found: Record<string, string[]> = {};
    await page.evaluate('location.hash = "#/agenda"');
    await page.locator('.agenda li.agenda-day').first().waitFor();
    found.agenda = await axeViolations(page);
    // the month of the seats the tests above opened
    await page.evaluate(`location.hash = "#/month/${seatToFill.date}"`);
    await page.locator('.calendar button.open-seat').first().click();
    await page.locator('aside.panel').getByRole('button', { name: 'Start callback' }).waitFor();
    found['seat panel'] = await axeViolations(page);
    await page.keyboard.press('Escape');
    await page.locator('.calendar button.person').first().click();
    await page.locator('aside.panel').getByRole('button', { name: 'Move shift' }).waitFor();
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOT_DIR, 'side-panel-person.png') });
    found['person panel'] = await axeViolations(page);
    await page.keyboard.press('Escape');
    expect(found).toEqual({ agenda: [], 'seat panel': [], 'person panel': [] });
  }, 120_000);

  it('opens on the agenda at phone width: today first, my shifts and my team; the month is a tap away', async () => {
    const phone = await context.newPage();
    try {
      await phone.setViewportSize({ width: 390, height: 844 });
      await phone.goto(`${server.url}/app/`);
      await phone.locator('.agenda li.agenda-day').first().waitFor();
      expect(await phone.locator('nav a[aria-current="page"]').textContent()).toBe('Agenda');
      const first = phone.locator('.agenda li.agenda-day').first();
      expect(await first.getAttribute('data-date')).toBe(orgToday());
      expect(await first.locator('.agenda-date').textContent()).toMatch(/^Today · /);
      expect(await phone.locator('.agenda li.agenda-day').count()).toBe(7);
      const [width, viewport] = await pageWidths(phone);
      expect(width).toBeLessThanOrEqual(viewport);

      // my shifts as the API has them, for the seven days
      const me = (await phone.evaluate(async () =>
        (await fetch('/app/session', { headers: { 'X-Crewplan-Session': '1' } })).json(),
      )) as { user: { id: number } };
      const week = (await phone.evaluate(
        async (url) => (await fetch(url, { headers: { 'X-Crewplan-Session': '1' } })).json(),
        `/v1/schedule?${period(orgToday(), addDays(orgToday(), 6))}`,
      )) as ScheduleJson;
      for (const day of week.days) {
        const mine = day.assignments.flatMap((a) => a.shifts.filter((s) => s.user.id === me.user.id));
        const cell = phone.locator(`.agenda li.agenda-day[data-date="${day.date}"]`);
        expect(await cell.locator('h3:text-is("My shifts") + p, h3:text-is("My shifts") ~ ul').first().count()).toBe(1);
        expect(await cell.locator('h3:text-is("My shifts") ~ ul.agenda-list').first().locator('> li').count()).toBe(
          mine.length + day.time_off.filter((t) => t.user.id === me.user.id).length,
        );
      }
      if (SCREENSHOTS) await phone.screenshot({ path: join(SCREENSHOT_DIR, 'agenda.png'), fullPage: true });
      expect(await axeViolations(phone)).toEqual([]);

      await phone.getByRole('link', { name: 'Month' }).click();
      await phone.locator('.calendar li.day').first().waitFor();
    } finally {
      await phone.close();
    }
  });
});
