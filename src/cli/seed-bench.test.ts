import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/helpers/server.js';
import { Temporal } from '../core/time.js';
import { seedBench, type BenchSeedResult } from './seed-bench.js';

const SCALE = { users: 20, assignments: 3, months: 2, timeOffs: 40, logs: 500, timezone: 'America/Chicago' };

describe('seed bench at a tiny scale, read back through the API', () => {
  let server: TestServer;
  let seeded: BenchSeedResult;
  let token: string;
  const get = async (path: string) => {
    const response = await server.request('GET', path, { token });
    expect(response.status, `${path}: ${response.text.slice(0, 300)}`).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    server = await startServer();
    seeded = await seedBench(server.app.dbHandle, server.config, SCALE);
    const response = await server.request('POST', '/oauth/access_token', {
      body: { grant_type: 'client_credentials', client_id: seeded.client_id, client_secret: seeded.client_secret },
      form: true,
    });
    expect(response.status).toBe(200);
    token = response.body.access_token;
  });
  afterAll(() => server?.close());

  it('reports what it wrote', () => {
    expect(seeded.counts).toEqual({
      users: 20,
      assignments: 3,
      recurring_shifts: 20,
      shifts: 40,
      time_offs: 40,
      logs: 500,
    });
  });

  it('creates the users and assignments the API lists', async () => {
    const users = await get('/users');
    expect(users).toHaveLength(20);
    const admin = await get(`/users/${seeded.admin_id}`);
    expect(admin.username ?? admin.user?.username).toBe('bench.user1');
  });

  it('writes exactly the requested number of log entries, newest first', async () => {
    let path: string | null = '/logs?limit=200';
    let total = 0;
    while (path) {
      const page: { data: unknown[]; next: string | null } = await get(path);
      total += page.data.length;
      path = page.next ? page.next.replace(/^https?:\/\/[^/]+/, '') : null;
    }
    expect(total).toBe(500);
  });

  it('writes time off entries the time off listing finds, month by month', async () => {
    const windowStart = Temporal.PlainDate.from(seeded.window_start);
    const ids = new Set<number>();
    for (const month of [0, 1]) {
      const start = windowStart.add({ months: month });
      const body = await get(`/time_offs?start=${start} 00:00:00&end=${start.add({ months: 1 })} 00:00:00&limit=1000`);
      const items: Array<{ id: number }> = body.items;
      for (const item of items) ids.add(item.id);
    }
    expect(ids.size).toBe(40);
  });

  it('puts every user on the rotation: a third of them on duty each day, plus the one-off shifts', async () => {
    const day = Temporal.PlainDate.from(seeded.window_start).add({ days: 9 });
    const schedule = await get(`/schedule?start=${day} 00:00:00&end=${day.add({ days: 1 })} 00:00:00`);
    const shifts = schedule.days[0].assignments.flatMap((a: { shifts: Array<{ recurring: boolean }> }) => a.shifts);
    const recurring = shifts.filter((s: { recurring: boolean }) => s.recurring);
    // approved time off takes a duty day off the schedule (it is listed under time_off instead)
    const offThatDay = schedule.days[0].time_off.filter((t: { start: string }) => t.start.startsWith(day.toString()));
    // crew c works days 3k + c from the window start: day 9 is crew A's (users 1, 4, 7, …: 7 of 20)
    expect(recurring.length + offThatDay.length).toBe(7);
    expect(recurring.length).toBeGreaterThan(0);
  });

  it('leaves the second day off free: POST /shifts books it, and refuses a duty day', async () => {
    const windowStart = Temporal.PlainDate.from(seeded.window_start);
    const free = windowStart.add({ days: 2 }).toString();
    const body = { assignment_id: 1, user_id: seeded.admin_id, work_type_id: 1 };
    const created = await server.request('POST', '/shifts', {
      token,
      body: { ...body, date: free, start: `${free} 10:00`, end: `${free} 12:00` },
    });
    expect(created.status, created.text).toBe(201);
    const duty = windowStart.toString();
    const clash = await server.request('POST', '/shifts', {
      token,
      body: { ...body, date: duty, start: `${duty} 10:00`, end: `${duty} 12:00` },
    });
    expect(clash.status).toBe(422);
  });
});
