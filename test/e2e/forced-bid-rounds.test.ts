import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../src/resources/users/seed.js';
import {
  axeViolations,
  type BoardBrowser,
  CHROMIUM,
  DEMO_ZONE,
  HAS_CHROMIUM,
  orgToday,
  pageApi,
  pageWidths,
  signIn as openBoard,
  startBoardBrowser,
} from './browser.js';
import { DEMO_PASSWORD, seedDemoOrganization } from './demo-org.js';

/**
 * Issue 38 on the board (admins): the forced list's order now (never forced first, then least
 * recently forced, then seniority; a member inside a buffer set apart, the next to be forced named)
 * in the Callbacks view, and a vacation bid round opened, paused, resumed and closed from the Time
 * off view. Every time is taken from the clock in the demo's zone: any date works.
 */
if (!HAS_CHROMIUM) console.warn(`test/e2e/forced-bid-rounds.test.ts skipped: ${CHROMIUM} is missing`);

type User = { user_id: number; username: string; full_name: string };

/** The organization's local datetime `hours` from now (YYYY-MM-DD HH:MM:00). */
function localIn(hours: number, zone = DEMO_ZONE): string {
  const at = new Date(Date.now() + hours * 3_600_000);
  return `${new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(at)}:00`;
}

describe.skipIf(!HAS_CHROMIUM)('forced list and bid rounds on the board', () => {
  let board: BoardBrowser;
  let orgId: number;
  let users: User[];
  const admin = DEMO_USERS[0]!.username;
  // the demo's hire dates: Jamal 2015, Grace 2016, Diego 2017 (seniority orders those never forced)
  const [jamal, grace, diego] = [7, 8, 9].map((i) => DEMO_USERS[i]!.username);
  const api = <T>(path: string, method = 'GET', body?: unknown) => pageApi(board.page)<T>(path, method, body);
  const user = (username: string) => users.find((u) => u.username === username)!;

  beforeAll(async () => {
    board = await startBoardBrowser({ width: 1280, height: 900 });
    orgId = (await seedDemoOrganization(board.server, DEMO_ZONE)).orgId;
    await openBoard(board.page, board.server.url, orgId, admin, DEMO_PASSWORD);
    await board.page.getByRole('navigation', { name: 'Views' }).waitFor();
    users = (await api<User[]>('/v1/users')).body;
  }, 60_000);

  afterAll(async () => {
    await board?.close();
  });

  it('shows the forced order now: the member inside the time-off buffer skipped, the next named', async () => {
    const group = await api<{ id: number }>('/v1/groups', 'POST', { name: 'Forced crew' });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    for (const name of [jamal, grace, diego]) {
      const put = await api(`/v1/users/${user(name).user_id}/groups`, 'PUT', { ids: [group.body.id] });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
    }
    const types = (await api<Array<{ id: number; label: string }>>('/v1/time_off_types')).body;
    const adminId = user(admin).user_id;
    // Jamal (never forced, most senior: first in the order) came back from leave 3 hours ago
    const leave = await api('/v1/time_offs', 'POST', {
      user_id: user(jamal).user_id,
      admin_ids: [adminId],
      time_off_type_id: types.find((t) => t.label === 'Vacation')!.id,
      start_date: localIn(-27),
      end_date: localIn(-3),
      status: 1,
    });
    expect(leave.status, JSON.stringify(leave.body)).toBe(201);
    const engine = (await api<Array<{ id: number; name: string }>>('/v1/assignments')).body.find(
      (a) => a.name === 'Engine 1',
    )!;
    const list = await api<{ members: Array<{ name: string; buffer: string | null }> }>(
      `/v1/groups/${group.body.id}/forced_list`,
      'PUT',
      {
        enabled: false,
        start_within_hours: 12,
        time_off_buffer_hours: 12,
        long_tour_hours: 0,
        long_tour_buffer_hours: 0,
        initiated_by: adminId,
        assignment_ids: [engine.id],
        last_forced: [{ user_id: user(diego).user_id, last_forced: `${orgToday()} 00:00:00` }],
      },
    );
    expect(list.status, JSON.stringify(list.body)).toBe(200);

    await board.page.goto(`${board.server.url}/app/#/callbacks`);
    const card = board.page.locator('.forced-list');
    await card.waitFor();
    expect(await card.locator('.next-forced').innerText()).toBe(`Next to be forced: ${user(grace).full_name}`);
    const rows: string[][] = [];
    for (const tr of await card.locator('tbody tr').all()) rows.push(await tr.locator('td').allInnerTexts());
    expect(rows.map((r) => [r[0], r[1]])).toEqual([
      ['1', user(jamal).full_name],
      ['2', user(grace).full_name],
      ['3', user(diego).full_name],
    ]);
    expect(rows[0]![4]).toMatch(/^Skipped: inside the time-off buffer: approved Vacation time off ended /);
    expect(rows[1]![4]).toBe('Next');
    expect(rows[2]![2]).toBe(`${orgToday()} 00:00`);
    expect(rows[2]![4]).toBe('Can be forced');
    expect(await axeViolations(board.page)).toEqual([]);
    // on a phone the order's table scrolls in its own box: the page does not scroll sideways
    await board.page.setViewportSize({ width: 375, height: 800 });
    try {
      const [width, viewport] = await pageWidths(board.page);
      expect(width).toBeLessThanOrEqual(viewport);
      expect(await axeViolations(board.page)).toEqual([]);
    } finally {
      await board.page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('opens, pauses, resumes and closes a bid round; whose turn it is follows', async () => {
    const types = (await api<Array<{ id: number; label: string }>>('/v1/time_off_types')).body;
    const members = [jamal, grace, diego].map((name) => user(name).user_id);
    const year = Number(orgToday().slice(0, 4)) + 1;
    const created = await api<{ id: number }>('/v1/bid_rounds', 'POST', {
      name: `Vacation bid ${year}`,
      year,
      time_off_type_ids: [types.find((t) => t.label === 'Vacation')!.id],
      user_ids: members,
      turn_minutes: 1440,
      opens_at: localIn(0),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    const status = async () => (await api<{ status: string }>(`/v1/bid_rounds/${id}`)).body.status;

    await board.page.goto(`${board.server.url}/app/#/time-off`);
    const card = board.page.locator(`li.bid-round[data-round="${id}"]`);
    await card.waitFor();
    expect(await card.locator('.round-status').innerText()).toBe('draft');
    expect(await axeViolations(board.page)).toEqual([]);

    const press = async (button: string, shown: string) => {
      await card.getByRole('button', { name: button }).click();
      await card
        .getByRole('status')
        .filter({ hasText: `Vacation bid ${year} ${shown}.` })
        .waitFor();
      await card
        .locator('.round-status')
        .filter({ hasText: shown.replace('is ', '') })
        .waitFor();
    };
    await press('Open', 'is open');
    expect(await status()).toBe('open');
    expect(await card.locator('.round-turn').innerText()).toMatch(new RegExp(`^Turn 1: ${user(jamal).full_name} \\(`));
    await press('Pause', 'is paused');
    expect(await status()).toBe('paused');
    expect(await card.locator('.round-turn').innerText()).toContain('the clock stands still while paused');
    await press('Resume', 'is open');
    expect(await status()).toBe('open');
    board.page.once('dialog', (dialog) => void dialog.accept());
    await press('Close', 'is closed');
    expect(await status()).toBe('closed');
    expect(await card.locator('.round-turn').innerText()).toBe('Closed: no more picks.');
    expect(await card.getByRole('button').count()).toBe(0);
    expect(await axeViolations(board.page)).toEqual([]);
  });

  it('makes a bid round from the Time off view: each field the API refuses shows its message', async () => {
    const year = Number(orgToday().slice(0, 4)) + 2;
    await board.page.goto(`${board.server.url}/app/#/time-off`);
    await board.page.getByText('New bid round', { exact: true }).first().click();
    const form = board.page.locator('form', { has: board.page.getByRole('heading', { name: 'New bid round' }) });
    await form.getByLabel('Name').fill(`Station bid ${year}`);
    await form.getByLabel(/^Year/).fill('1999');
    await form.getByLabel('Minutes a turn').fill('0');
    await form.getByLabel(/^Members: the group/).selectOption({ label: 'Forced crew' });
    const refused = board.page.waitForResponse(
      (r) => r.url().endsWith('/v1/bid_rounds') && r.request().method() === 'POST',
    );
    await form.getByRole('button', { name: 'Make the bid round' }).click();
    expect((await refused).status()).toBe(422);
    const yearField = form.getByLabel(/^Year/);
    await form.locator('#bid-round-year-error').waitFor();
    expect(await form.locator('#bid-round-year-error').innerText()).toMatch(/^The year must be at least 2000\.?/);
    expect(await form.locator('#bid-round-turn_minutes-error').innerText()).toMatch(
      /^The turn minutes must be at least 1/,
    );
    expect(await yearField.getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByLabel('Name').getAttribute('aria-invalid')).toBeNull();
    // the first field refused has the focus; each error is read with its field
    expect(await board.page.evaluate('document.activeElement.name')).toBe('year');
    expect(await yearField.getAttribute('aria-describedby')).toBe('bid-round-year-error');
    expect(await axeViolations(board.page)).toEqual([]);
    expect((await api<Array<{ name: string }>>('/v1/bid_rounds')).body.map((r) => r.name)).not.toContain(
      `Station bid ${year}`,
    );

    await yearField.fill(String(year));
    await form.getByLabel('Minutes a turn').fill('90');
    await form.getByLabel('Turns per member').fill('2');
    await form.getByRole('button', { name: 'Make the bid round' }).click();
    await form
      .getByRole('status')
      .filter({ hasText: `Station bid ${year} is made, in draft` })
      .waitFor();
    expect(await form.locator('.field-error').count()).toBe(0);
    const rounds =
      await api<
        Array<{
          id: number;
          name: string;
          year: number;
          turn_minutes: number;
          turns_per_member: number;
          status: string;
          members: Array<{ name: string }>;
          time_off_type_ids: number[];
        }>
      >('/v1/bid_rounds');
    const round = rounds.body.find((r) => r.name === `Station bid ${year}`)!;
    expect(round).toBeTruthy();
    const types = (await api<Array<{ id: number; label: string }>>('/v1/time_off_types')).body;
    expect([round.year, round.turn_minutes, round.turns_per_member, round.status]).toEqual([year, 90, 2, 'draft']);
    expect(round.time_off_type_ids).toEqual([Number(types.find((t) => t.label === 'Vacation')!.id)]);
    // the group's members in seniority order
    expect(round.members.map((m) => m.name)).toEqual([jamal, grace, diego].map((n) => user(n).full_name));
    // the list shows the new round at once, in draft
    await board.page
      .locator(`li.bid-round[data-round="${round.id}"] .round-status`)
      .filter({ hasText: 'draft' })
      .waitFor();
    expect(await axeViolations(board.page)).toEqual([]);
  });

  it("edits a group's forced-hire settings under its order: field errors as the API gives them, then the order moves", async () => {
    await board.page.goto(`${board.server.url}/app/#/callbacks`);
    const card = board.page.locator('.forced-list');
    await card.locator('.next-forced').waitFor();
    await card.getByText('Forced-hire settings', { exact: true }).click();
    const form = card.getByRole('form', { name: 'Forced-hire settings of Forced crew' });
    const save = form.getByRole('button', { name: 'Save the settings of Forced crew' });
    const refused = () =>
      board.page.waitForResponse((r) => r.url().endsWith('/forced_list') && r.request().method() === 'PUT');
    // forcing by itself in nobody's name, and a negative tour: the schema refuses the tour first
    await form.getByLabel(/Force by itself/).check();
    await form.getByLabel('Forced hires are made in the name of').selectOption({ label: 'Nobody (only by hand)' });
    await form.getByLabel(/^Long tour \(hours\)/).fill('-1');
    let answer = refused();
    await save.click();
    expect((await answer).status()).toBe(422);
    const tourError = form.locator(`[id$="-long_tour_hours-error"]`);
    await tourError.waitFor();
    expect(await tourError.innerText()).toMatch(/^The long tour hours must be at least 0/);
    expect(await board.page.evaluate('document.activeElement.name')).toBe('long_tour_hours');
    expect(await axeViolations(board.page)).toEqual([]);
    // then the rule: forcing by itself needs someone to force in the name of
    await form.getByLabel(/^Long tour \(hours\)/).fill('24');
    answer = refused();
    await save.click();
    expect((await answer).status()).toBe(422);
    const byError = form.locator(`[id$="-initiated_by-error"]`);
    await byError.waitFor();
    expect(await byError.innerText()).toMatch(
      /^The initiated by field is required when the forced list starts by itself/,
    );
    expect(await tourError.count()).toBe(0);
    expect(await board.page.evaluate('document.activeElement.name')).toBe('initiated_by');
    expect(await axeViolations(board.page)).toEqual([]);
    // saved: no time-off buffer any more, so Jamal (never forced, most senior) is next
    await form.getByLabel('Forced hires are made in the name of').selectOption({ label: user(admin).full_name });
    await form.getByLabel(/^Time-off buffer \(hours\)/).fill('0');
    await save.click();
    await form.getByRole('status').filter({ hasText: 'Saved the forced list of Forced crew.' }).waitFor();
    expect(await form.locator('.field-error').count()).toBe(0);
    await card
      .locator('.next-forced')
      .filter({ hasText: `Next to be forced: ${user(jamal).full_name}` })
      .waitFor();
    const groupId = Number(await card.getAttribute('data-group'));
    const stored = await api<Record<string, unknown>>(`/v1/groups/${groupId}/forced_list`);
    expect(stored.body).toMatchObject({
      enabled: true,
      initiated_by: user(admin).user_id,
      time_off_buffer_hours: 0,
      long_tour_hours: 24,
      long_tour_buffer_hours: 0,
      start_within_hours: 12,
    });
    expect((stored.body.assignment_ids as number[]).length).toBe(1);
    expect(await axeViolations(board.page)).toEqual([]);
  });
});
