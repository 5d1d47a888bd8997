import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoOrganization } from '../src/cli/seed.js';
import { startServer, type TestServer } from './helpers/server.js';

/**
 * What `seed demo` builds, read back only through the API: a department staffed as real ones are
 * (three platoons on a 24/48 with Kelly days, each unit at its minimum most days), a few real
 * vacancies, pending time off, an open callback, and an admin with shifts of their own.
 */
const TZ = 'America/Chicago';

interface Day {
  date: string;
  assignments: Array<{
    id: number;
    name: string;
    shifts: Array<{ user: { id: number }; recurring: boolean; groups: Array<{ label: string }> }>;
    staffing: { needed: number; scheduled: number; open: number; qualifier_shortfalls: unknown[] };
  }>;
  kelly_days?: Array<{ user: { id: number }; code: string }>;
}

let server: TestServer;
let token: string;
let adminId: number;

const get = async <T = any>(path: string, query?: Record<string, string | number>) => {
  const response = await server.request<T>('GET', path, { token, query });
  expect(response.status, response.text).toBe(200);
  return response.body;
};

const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date());
const day = (offset: number) =>
  new Date(Date.parse(`${today}T12:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

let twoWeeks: Day[];

beforeAll(async () => {
  server = await startServer();
  const started = performance.now();
  const seeded = await seedDemoOrganization(server.app.db, server.config.secretKey, TZ);
  console.log(`seed demo: ${(performance.now() - started).toFixed(0)} ms in the test server's database`);
  adminId = seeded.userIds[0]!;
  const response = await server.request<{ access_token: string }>('POST', '/oauth/access_token', {
    body: { grant_type: 'client_credentials', client_id: seeded.client_id, client_secret: seeded.client_secret },
    form: true,
  });
  token = response.body.access_token;
  twoWeeks = (await get<{ days: Day[] }>('/schedule', { start: `${day(0)} 00:00:00`, end: `${day(14)} 00:00:00` }))
    .days;
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('seed demo', () => {
  it('has a few real vacancies in the next two weeks, as GET /vacancies and the schedule both say', async () => {
    const vacancies = await get<Array<{ assignment: { name: string }; date: string; open: number }>>('/vacancies', {
      start: `${day(0)} 00:00:00`,
      end: `${day(14)} 00:00:00`,
    });
    expect(vacancies.length).toBeGreaterThan(0);
    expect(vacancies.length).toBeLessThanOrEqual(6);
    const short = twoWeeks.flatMap((d) =>
      d.assignments
        .filter((a) => a.staffing.open > 0 || a.staffing.qualifier_shortfalls.length > 0)
        .map((a) => `${a.name} ${d.date}`),
    );
    expect(short.sort()).toEqual(vacancies.map((v) => `${v.assignment.name} ${v.date}`).sort());
  });

  it('staffs every apparatus to its minimum, with its qualifiers, on most days', () => {
    const posts = twoWeeks.flatMap((d) => d.assignments.filter((a) => a.staffing.needed > 0));
    const names = [...new Set(posts.map((a) => a.name))];
    expect(names).toEqual(expect.arrayContaining(['Engine 1', 'Engine 2', 'Ladder 1', 'Medic 1', 'Battalion Chief']));
    for (const name of names) {
      const days = posts.filter((a) => a.name === name);
      const staffed = days.filter((a) => a.staffing.open === 0 && a.staffing.qualifier_shortfalls.length === 0);
      expect(days.length, name).toBeGreaterThanOrEqual(14);
      expect(staffed.length / days.length, name).toBeGreaterThanOrEqual(0.75);
    }
  });

  it('puts the three platoons on duty in turn, with Kelly days', () => {
    const platoonOf = (d: Day) => {
      const groups = d.assignments.flatMap((a) =>
        a.shifts.filter((s) => s.recurring).flatMap((s) => s.groups.map((g) => g.label)),
      );
      return [...new Set(groups)];
    };
    const platoons = twoWeeks.map(platoonOf);
    for (const labels of platoons) expect(labels).toHaveLength(1);
    const order = platoons.map((labels) => labels[0]);
    expect(new Set(order.slice(0, 3)).size).toBe(3);
    order.forEach((label, index) => {
      if (index >= 3) expect(label).toBe(order[index - 3]);
    });
    const kelly = twoWeeks.flatMap((d) => d.kelly_days ?? []);
    expect(kelly.length).toBeGreaterThan(0);
    expect(kelly.every((k) => k.code === 'KD')).toBe(true);
  });

  it('names the platoon of each day in a visual cycle matching the crew on duty', async () => {
    const cycles = await get<Array<{ name: string; start: string; end: string; color: string }>>('/visual_cycles', {
      start: day(0),
      end: day(13),
    });
    expect(cycles).toHaveLength(14);
    for (const d of twoWeeks) {
      const cycle = cycles.find((c) => c.start.slice(0, 10) === d.date);
      const onDuty = d.assignments.flatMap((a) => a.shifts.filter((s) => s.recurring).map((s) => s.groups[0]?.label));
      expect(onDuty).toContain(cycle?.name);
    }
    expect(new Set(cycles.map((c) => c.color)).size).toBe(3);
  });

  it('flags its Sick type as the one "Mark sick" records (sick_leave), and no other', async () => {
    const types = await get<Array<{ label: string; sick_leave: boolean }>>('/time_off_types');
    expect(types.filter((t) => t.sick_leave).map((t) => t.label)).toEqual(['Sick']);
  });

  it('has pending time off in the queue', async () => {
    const pending = await get<{ items: Array<{ status: string }> }>('/time_offs', {
      start: `${day(0)} 00:00:00`,
      end: `${day(30)} 00:00:00`,
      status: 0,
    });
    expect(pending.items.length).toBeGreaterThanOrEqual(2);
    expect(pending.items.every((t) => String(t.status) === '0')).toBe(true);
  });

  it("has approved time off on its users' shifts: each charges one 24-hour shift less its break", async () => {
    const listed = await get<{ items: Array<{ status: number; length: number; real_length: number }> }>('/time_offs', {
      start: `${day(-14)} 00:00:00`,
      end: `${day(30)} 00:00:00`,
    });
    // the first page: a month from the start
    const approved = listed.items.filter((t) => t.status === 1);
    expect(approved.length).toBeGreaterThanOrEqual(3);
    expect(approved.map((t) => [t.length, t.real_length])).toEqual(approved.map(() => [24, 23.5]));
  });

  it('has an open callback', async () => {
    const callbacks = await get<{ data: Array<{ status: string }> }>('/callbacks', {
      start: `${day(-1)} 00:00:00`,
      end: `${day(14)} 00:00:00`,
    });
    expect(callbacks.data.map((c) => c.status)).toContain('active');
    expect(callbacks.data.map((c) => c.status)).toContain('filled');
  });

  it('gives the admin shifts of their own', () => {
    const mine = twoWeeks.flatMap((d) => d.assignments.flatMap((a) => a.shifts.filter((s) => s.user.id === adminId)));
    expect(mine.length).toBeGreaterThanOrEqual(3);
  });
});
