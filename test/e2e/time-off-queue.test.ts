import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import {
  axeViolations,
  CHROMIUM,
  HAS_CHROMIUM,
  signIn as openBoard,
  type BoardBrowser,
  startBoardBrowser,
} from './browser.js';
import { DEMO_PASSWORD, seedDemoOrganization } from './demo-org.js';

/**
 * The time off queue's context (balance, request date, who else is off, the engine's approval
 * impact), a member's balances, and the platoon of the day on the board, in Debian's Chromium
 * against the real server with the demo organization (set up as test/e2e/webapp.test.ts does).
 */
if (!HAS_CHROMIUM)
  console.warn(`test/e2e/time-off-queue.test.ts skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

interface Impact {
  time_off_id: number;
  seats_opened: number;
  new_vacancies: number;
  assignments: Array<{ assignment: { name: string }; date: string; after: { open: number } }>;
  bank: { balance_after: number; allowed: boolean } | null;
}

describe.skipIf(!HAS_CHROMIUM)('time off queue and platoons in Chromium', () => {
  let server: TestServer;
  let orgId: number;
  let page: Page;
  let board: BoardBrowser;

  const apiGet = <T>(path: string): Promise<T> =>
    page.evaluate(async (url) => {
      const response = await fetch(url, { headers: { 'X-Crewplan-Session': '1' } });
      return { status: response.status, body: await response.json() };
    }, path) as Promise<T>;
  const apiBody = async <T>(path: string): Promise<T> => {
    const { status, body } = await apiGet<{ status: number; body: T }>(path);
    expect(status, path).toBe(200);
    return body;
  };

  async function signIn(username: string): Promise<void> {
    await openBoard(page, server.url, orgId, username, DEMO_PASSWORD);
    await page.locator('.calendar li.day').first().waitFor();
  }

  beforeAll(async () => {
    board = await startBoardBrowser({ width: 1400, height: 900 });
    ({ server, page } = board);
    orgId = (await seedDemoOrganization(server)).orgId;
  }, 60_000);

  afterAll(async () => {
    await board?.close();
  });

  it('colours each day header by the platoon on duty (its visual cycle) and names the platoons in a legend', async () => {
    await signIn('dana.whitfield');
    const first = (await page.locator('.calendar li.day').first().getAttribute('data-date'))!;
    const last = (await page.locator('.calendar li.day').last().getAttribute('data-date'))!;
    const cycles = await apiBody<Array<{ name: string; start: string; color: string }>>(
      `/v1/visual_cycles?start=${first}&end=${last}`,
    );
    expect(cycles.length).toBeGreaterThan(27);
    const legend = page.locator('.cycle-legend .cycle');
    expect((await legend.allTextContents()).sort()).toEqual([...new Set(cycles.map((c) => c.name))].sort());
    expect(await legend.allTextContents()).toEqual(expect.arrayContaining(['A Shift', 'B Shift', 'C Shift']));
    for (const cycle of cycles.slice(0, 6)) {
      const day = page.locator(`.calendar li.day[data-date="${cycle.start.slice(0, 10)}"]`);
      expect(await day.locator('.day-head .cycle').textContent()).toBe(cycle.name);
      // the test code has no DOM types: the page's own getComputedStyle through globalThis
      const [border, badge] = await day.evaluate((cell: any) => {
        const style = (globalThis as any).getComputedStyle;
        return [style(cell).borderTopColor, style(cell.querySelector('.day-head .cycle')).backgroundColor];
      });
      const rgb = `rgb(${[1, 3, 5].map((i) => Number.parseInt(cycle.color.slice(i, i + 2), 16)).join(', ')})`;
      expect([border, badge]).toEqual([rgb, rgb]);
    }
    expect(await axeViolations(page)).toEqual([]);
  });

  it('shows each pending request with the balance, request date, who else is off and the staffing its approval leaves', async () => {
    await page.getByRole('link', { name: 'Time off' }).click();
    const cards = page.locator('ul.queue > li.card');
    await cards.first().waitFor();
    const start = (await page.evaluate('new Date().toISOString().slice(0, 8)')) as string;
    type Page = {
      items: Array<{ id: number; user: { id: number; name: string }; time_off_type: { id: number; name: string } }>;
      metadata: { links: { next: string | null } };
    };
    let listing = await apiBody<Page>(
      `/v1/time_offs?start=${start}01%2000:00:00&end=${Number(start.slice(0, 4)) + 1}-${start.slice(5, 7)}-01%2000:00:00&status=0`,
    );
    const items = [...listing.items];
    while (listing.metadata.links.next) {
      listing = await apiBody<Page>(
        new URL(listing.metadata.links.next).pathname + new URL(listing.metadata.links.next).search,
      );
      items.push(...listing.items);
    }
    const pending = [...new Map(items.map((t) => [t.id, t])).values()];
    expect(await cards.count()).toBe(pending.length);
    let opening = 0;
    for (const [index, entry] of pending.entries()) {
      const card = cards.nth(index);
      expect(await card.locator('.card-title').textContent()).toBe(`${entry.user.name} · ${entry.time_off_type.name}`);
      const bank = await apiBody<Array<{ hours: number; time_off_type: { id: string } }>>(
        `/v1/users/${entry.user.id}/timeoff/accrual/bank`,
      );
      const balance = bank.find((b) => b.time_off_type.id === String(entry.time_off_type.id));
      const impact = await apiBody<Impact>(`/v1/time_offs/${entry.id}/impact`);
      // the balance after approval, from the impact's bank (issue 37)
      const after = impact.bank ? ` · after approval: ${Math.round(impact.bank.balance_after * 100) / 100} h` : '';
      expect(await card.locator('.balance').textContent()).toBe(
        (balance ? `${entry.time_off_type.name} balance: ${balance.hours} h` : `No ${entry.time_off_type.name} bank`) +
          after,
      );
      expect(await card.locator('.overdraft').count()).toBe(impact.bank && !impact.bank.allowed ? 1 : 0);
      expect(await card.locator('.requested').textContent()).toMatch(/^Requested [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
      expect(await card.locator('.others').textContent()).toMatch(/^(Nobody else is off then\.|Also off: .+)$/);
      const effect = (await card.locator('.impact').textContent()) ?? '';
      if (impact.assignments.length === 0) expect(effect).toBe('Staffing: no change (not on duty those days).');
      else if (impact.seats_opened > 0 || impact.new_vacancies > 0) {
        opening += 1;
        expect(effect).toContain(`opens ${impact.seats_opened} seat`);
        for (const change of impact.assignments) expect(effect).toContain(`${change.assignment.name} · ${change.date}`);
      } else expect(effect).toContain('stays at minimum');
    }
    // the demo has a request whose approval would leave a post short
    expect(opening).toBeGreaterThan(0);
    expect(await page.locator('.impact.short').count()).toBe(opening);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('a request made meanwhile (through the API) shows in the open queue within 2 s, without navigation', async () => {
    const cards = page.locator('ul.queue > li.card');
    const before = await cards.count();
    const users = await apiBody<Array<{ user_id: number; username: string }>>('/v1/users');
    const types = await apiBody<Array<{ id: number; name?: string; label?: string }>>('/v1/time_off_types');
    const day = new Date(Date.now() + 45 * 86_400_000).toISOString().slice(0, 10);
    const made = (await page.evaluate(
      async (body) => {
        const response = await fetch('/v1/time_offs', {
          method: 'POST',
          headers: { 'X-Crewplan-Session': '1', 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return response.status;
      },
      {
        user_id: users.find((u) => u.username === 'grace.liu')!.user_id,
        admin_ids: [users.find((u) => u.username === 'dana.whitfield')!.user_id],
        start_date: `${day} 07:00:00`,
        end_date: `${day} 19:00:00`,
        time_off_type_id: Number(types[0]!.id),
        status: 0,
      },
    )) as number;
    expect(made).toBe(201);
    await expect.poll(() => cards.count(), { timeout: 2000, interval: 50 }).toBe(before + 1);
  });

  it('shows a member their own balances, and no one else’s', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Username').waitFor();
    await signIn('sam.oconnell');
    await page.getByRole('link', { name: 'Time off' }).click();
    const items = page.locator('ul.balances li');
    await items.first().waitFor();
    const me = await apiBody<{ user: { id: number } }>('/app/session');
    const bank = await apiBody<Array<{ hours: number; time_off_type: { name: string } }>>(
      `/v1/users/${me.user.id}/timeoff/accrual/bank`,
    );
    expect(bank.length).toBeGreaterThan(0);
    expect(await items.allTextContents()).toEqual(bank.map((b) => `${b.time_off_type.name} ${b.hours} h`));
    const other = await apiGet<{ status: number }>(`/v1/users/${me.user.id + 1}/timeoff/accrual/bank`);
    expect(other.status).toBe(403);
    expect(await page.locator('#queue-title').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });
});
