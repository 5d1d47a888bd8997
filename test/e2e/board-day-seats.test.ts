import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseOf } from '../../client/src/index.js';
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
  signIn,
  startBoardBrowser,
} from './browser.js';
import { DEMO_PASSWORD, seedDemoOrganization } from './demo-org.js';

/**
 * The day view's seats (issue 40): on a day to come with Kelly days, a trade and a sick person
 * placed through the API, every apparatus shows, seat by seat, what GET /schedule and GET
 * /vacancies say: who sits there, who is off on the seat and why (Sick to the admin, "Off" to a
 * member: the demo's Sick is masked), Kelly days, the trade (worked by, owed), the open seats.
 * The day is read from the organization's today and the engine's Kelly days: any day of the year.
 */
if (!HAS_CHROMIUM) console.warn(`test/e2e/board-day-seats.test.ts skipped: ${CHROMIUM} is missing`);

/** The API's shapes, from the typed client. */
type Day = ResponseOf<'getSchedule'>['days'][number];
type Shift = Day['assignments'][number]['shifts'][number];
type Vacancy = { assignment: { id: number }; date: string; open: number };
type Seats = Record<'person' | 'absent' | 'kelly' | 'traded' | 'open', number[]>;

/** `UPDATE_SCREENSHOTS=1` rewrites docs/screenshots/day.png (admin, 1280 px) and phone-trades.png (member, 390 px). */
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = join('docs', 'screenshots');
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
const [admin, member] = [DEMO_USERS[0]!.username, DEMO_USERS[1]!.username];

describe.skipIf(!HAS_CHROMIUM)('the day view, seat by seat', () => {
  let board: BoardBrowser;
  let orgId: number;
  let date: string;
  let sickName: string;
  /** the day's seats as the API says them (read by the admin: a member may not read GET /vacancies) */
  let said: Record<string, Seats>;
  const api = <T>(path: string, method = 'GET', body?: unknown) => pageApi(board.page)<T>(path, method, body);
  const get = async <T>(path: string) => (await api<T>(path)).body;
  const dayOf = async (day: string) => (await get<{ days: Day[] }>(`/v1/schedule?${period(day, day)}`)).days[0]!;

  /** What the page's day view shows, by assignment: the users of each kind of seat, and the open seats. */
  const seatsShown = () =>
    board.page.evaluate(`(() => {
      const shown = {};
      for (const section of document.querySelectorAll('.day-view section[data-assignment]')) {
        const ids = (kind) =>
          [...section.querySelectorAll('li[data-seat="' + kind + '"]')].map((li) => Number(li.dataset.user)).sort((a, b) => a - b);
        shown[section.dataset.assignment] = {
          person: ids('person'), absent: ids('absent'), kelly: ids('kelly'), traded: ids('traded'),
          open: [section.querySelectorAll('li[data-seat="open"]').length],
        };
      }
      return shown;
    })()`) as Promise<Record<string, Seats>>;

  /** What GET /schedule and GET /vacancies say of each assignment the day view shows that day. */
  async function seatsSaid(): Promise<Record<string, Seats>> {
    const day = await dayOf(date);
    const vacancies = await get<Vacancy[]>(`/v1/vacancies?${period(date, date)}`);
    const said: Record<string, Seats> = {};
    for (const post of day.assignments.filter((a) => a.staffing.needed > 0 || a.shifts.length > 0)) {
      const open = vacancies.find((v) => v.assignment.id === post.id && v.date === date)?.open ?? 0;
      expect(open, `${post.name}: vacancies and schedule agree`).toBe(post.staffing.open);
      const worker = (t: Day['trades'][number]) =>
        post.shifts.some((s) => s.user.id === t.accepting_user.id && t.start < s.end && t.end > s.start);
      said[post.id] = {
        person: sorted(post.shifts.map((s) => s.user.id)),
        absent: sorted(
          day.time_off.filter((t) => t.seats?.some((s) => s.assignment_id === post.id)).map((t) => t.user.id),
        ),
        kelly: sorted((day.kelly_days ?? []).filter((k) => k.assignment_id === post.id).map((k) => k.user.id)),
        traded: sorted(day.trades.filter(worker).map((t) => t.requesting_user.id)),
        open: [open],
      };
    }
    return said;
  }

  async function signInAs(username: string): Promise<void> {
    await board.context.clearCookies();
    await signIn(board.page, board.server.url, orgId, username, DEMO_PASSWORD);
    await board.page.locator('header.top').waitFor();
  }

  const openDay = async () => {
    await board.page.goto(`${board.server.url}/app/#/day/${date}`);
    await board.page.locator(`.day-view[data-date="${date}"] section[data-assignment]`).first().waitFor();
  };

  beforeAll(async () => {
    board = await startBoardBrowser();
    orgId = (await seedDemoOrganization(board.server, DEMO_ZONE)).orgId;
    await signInAs(admin);
    // a day to come with Kelly days, far enough ahead for a trade
    const start = addDays(orgToday(), 3);
    const days = (await get<{ days: Day[] }>(`/v1/schedule?${period(start, addDays(start, 10))}`)).days;
    const withKelly = days.find((d) => (d.kelly_days ?? []).length > 0);
    if (!withKelly) throw new Error('the demo has no Kelly day in the coming days');
    date = withKelly.date;
    const next = days.find((d) => d.date === addDays(date, 1));
    const users = await get<Array<{ user_id: number; username: string }>>('/v1/users');
    const adminId = users.find((u) => u.username === admin)!.user_id;
    const memberId = users.find((u) => u.username === member)!.user_id;

    // a trade: someone of the next day's platoon works a seat of this day (the first pair the API accepts)
    const seated = withKelly.assignments.flatMap((a) => a.shifts).filter((s) => s.user.id !== memberId);
    const takers = (next?.assignments ?? []).flatMap((a) => a.shifts);
    let traded: Shift | undefined;
    for (const shift of seated) {
      for (const taker of takers.filter((t) => t.qualifiers.length === shift.qualifiers.length).slice(0, 4)) {
        const trade = await api('/v1/trades', 'POST', {
          requesting_user: shift.user.id,
          start: shift.start,
          end: shift.end,
          accepting_user_id: taker.user.id,
          approving_user_id: adminId,
          approve: true,
        });
        if (trade.status === 201) traded = shift;
        if (traded) break;
      }
      if (traded) break;
    }
    expect(traded, 'a trade the API accepts').toBeDefined();
    // someone else sick on their seat (the demo's Sick is masked)
    const types = await get<Array<{ id: number; label: string }>>('/v1/time_off_types');
    const sick = types.find((t) => t.label === 'Sick')!;
    const ill = seated.find((s) => s.user.id !== traded!.user.id)!;
    sickName = ill.user.name;
    const leave = await api('/v1/time_offs', 'POST', {
      user_id: ill.user.id,
      admin_ids: [adminId],
      time_off_type_id: sick.id,
      start_date: ill.start,
      end_date: ill.end,
      status: 1,
    });
    expect(leave.status, JSON.stringify(leave.body)).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await board?.close();
  }, 60_000);

  it('shows every seat as GET /schedule and GET /vacancies say, with why people are off (admin, 1280 px)', async () => {
    await openDay();
    said = await seatsSaid();
    await expect.poll(seatsShown, { timeout: 5000 }).toEqual(said);
    const all = Object.values(said);
    for (const kind of ['absent', 'kelly', 'traded'] as const)
      expect(
        all.some((s) => s[kind].length > 0),
        `some ${kind} seat`,
      ).toBe(true);
    const page = board.page;
    const sickLine = page.locator('li[data-seat="absent"]', { hasText: sickName });
    expect(await sickLine.innerText()).toContain('Sick');
    const tradeLine = page.locator('li[data-seat="traded"]').first();
    expect(await tradeLine.innerText()).toMatch(/traded: worked by .+, owes /);
    expect(await page.locator('[data-trade]').first().innerText()).toMatch(/^trade: works for /);
    expect(await page.locator('li[data-seat="kelly"]').first().innerText()).toContain('Kelly day');
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOT_DIR, 'day.png') });
    expect(await axeViolations(page)).toEqual([]);
  }, 120_000);

  it('shows a masked type as Off to a member, at phone width', async () => {
    await signInAs(member);
    await board.page.setViewportSize({ width: 390, height: 844 });
    await openDay();
    await expect.poll(seatsShown, { timeout: 5000 }).toEqual(said);
    const sickLine = await board.page.locator('li[data-seat="absent"]', { hasText: sickName }).innerText();
    expect(sickLine).toContain('Off');
    expect(sickLine).not.toContain('Sick');
    const [scroll, width] = await pageWidths(board.page);
    expect(scroll).toBeLessThanOrEqual(width);
    expect(await axeViolations(board.page)).toEqual([]);
  }, 120_000);

  it('lets a member request a trade on their phone, with the payback balance of the API', async () => {
    const page = board.page;
    await page.getByRole('link', { name: 'Trades' }).click();
    await page.getByRole('heading', { name: 'Request a trade' }).waitFor();
    const users = (await api<Array<{ user_id: number; username: string }>>('/v1/users')).body;
    const me = users.find((u) => u.username === member)!.user_id;
    type Balance = { user: { id: number; name: string }; user_owes: number; owes_user: number };
    const balance = (await api<Balance[]>(`/v1/users/${me}/trade_balance`)).body;
    const words = (b: Balance) => `You owe ${b.user.name} ${b.user_owes} h · ${b.user.name} owes you ${b.owes_user} h`;
    expect(await page.locator('[data-counterpart]').allInnerTexts()).toEqual(balance.map(words));
    await page.getByLabel('My shift').selectOption({ index: 1 });
    const taker = balance[0]?.user ?? { id: users.find((u) => u.user_id !== me)!.user_id };
    await page.getByLabel('Worked by').selectOption(String(taker.id));
    const hint = await page.locator(`[data-balance-with="${taker.id}"]`).innerText();
    expect(hint).toBe(balance[0] ? words(balance[0]) : expect.stringMatching(/^No trades with /));
    await page.getByRole('button', { name: 'Request trade' }).click();
    const done = await page.getByRole('status').filter({ hasText: 'requested' }).innerText();
    const id = Number(/Trade #(\d+)/.exec(done)?.[1]);
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOT_DIR, 'phone-trades.png'), fullPage: true });
    const [scroll, width] = await pageWidths(page);
    expect(scroll, 'no sideways scrolling at phone width').toBeLessThanOrEqual(width);
    expect(await axeViolations(page)).toEqual([]);

    await signInAs(admin);
    const trade = await api<{ status: string; requesting_user: { id: string }; accepting_user: null }>(
      `/v1/trades/${id}`,
    );
    expect(trade.body).toMatchObject({ status: 'pending', requesting_user: { id: String(me) }, accepting_user: null });
    const offered = await api<Array<{ id: string; status: string }>>(`/v1/trades/${id}/users`);
    expect(offered.body.map((u) => [u.id, u.status])).toEqual([[String(taker.id), 'offered']]);
  }, 120_000);
});
