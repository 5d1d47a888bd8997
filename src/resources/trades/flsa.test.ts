import { describe, expect, it } from 'vitest';
import { useOrgs } from '../../../test/helpers/server.js';
import { createAssignment, createRotation, placeCrews } from '../rotations/test-fixtures.js';
import { filledTrade } from './test-fixtures.js';

/*
 * FLSA §7(p)(3) (29 CFR 553.31) through HTTP: the hours a substitute works on a voluntary trade are
 * the scheduled person's hours of work by default (GET /work_period `trade_hours_count_for`:
 * `scheduled`), in the 7(k) overtime report and in payroll; `worker` counts them for the substitute.
 *
 * A 24/48 rotation anchored 2031-04-01; a 28-day period of 212 h from 2031-04-01 07:00 (FLSA fire:
 * 212 h in 28 days). Crew A works Apr 1, 4, …, 28 = 10 tours = 240 h; crew B Apr 2, 5, …, 26 = 9
 * tours = 216 h. Bea (crew B) trades her Apr 8 tour to Al (crew A), who is off that day.
 */
const { org } = await useOrgs();
const admin = await org.createUser({ first_name: 'Steve', last_name: 'Boss', role: 'Admin' });
const engine = await createAssignment(org, {
  name: 'Engine 3',
  start: '2031-04-01 07:00:00',
  end: '2031-04-02 07:00:00',
});
const rotation = await createRotation(org, { anchor_date: '2031-04-01' });
const al = await org.createUser({ first_name: 'Al', last_name: 'Sub' });
const bea = await org.createUser({ first_name: 'Bea', last_name: 'Owner' });
await placeCrews(
  org,
  [
    [al, 'A'],
    [bea, 'B'],
  ],
  { rotation_id: rotation, assignment_id: engine, start_date: '2031-04-01' },
);
const PERIOD = { start: '2031-04-01 07:00:00', end: '2031-04-29 07:00:00' };
expect((await org.patch('/work_period', { days: 28, threshold_hours: 212, start: PERIOD.start })).status).toBe(200);

await filledTrade(org, { requester: bea, taker: al, admin }, '2031-04-08 07:00:00', '2031-04-09 07:00:00');

async function overtimeOf(userId: number) {
  const response = await org.get('/overtime', { query: { ...PERIOD, user_id: userId } });
  expect(response.status, response.text).toBe(200);
  const [row] = response.body;
  return { worked: row.worked_hours, counted: row.counted_hours, overtime: row.overtime_hours };
}

async function paidHours(userId: number) {
  const response = await org.get(`/payroll/${userId}`, { query: PERIOD });
  expect(response.status, response.text).toBe(200);
  const rows = response.body as Array<{ type: string; total_hours: number; worked_by?: { user_id: string } }>;
  return {
    total: rows.reduce((sum, row) => sum + row.total_hours, 0),
    byOthers: rows.filter((row) => row.worked_by).map((row) => [row.worked_by!.user_id, row.total_hours]),
  };
}

async function countFor(setting: 'scheduled' | 'worker') {
  const response = await org.patch('/work_period', { trade_hours_count_for: setting });
  expect(response.status, response.text).toBe(200);
  expect(response.body.work_period.trade_hours_count_for).toBe(setting);
}

describe('trade hours and FLSA §7(p)(3)', () => {
  it('by default counts the trade for the scheduled person: substitute 240 h / 28 OT, owner 216 h / 4 OT', async () => {
    expect((await org.get('/work_period')).body.trade_hours_count_for).toBe('scheduled');
    expect(await overtimeOf(al)).toEqual({ worked: 240, counted: 240, overtime: 28 });
    expect(await overtimeOf(bea)).toEqual({ worked: 216, counted: 216, overtime: 4 });
    // the whole-org report agrees with the per-user one
    const all = (await org.get('/overtime', { query: PERIOD })).body as Array<{ user: { id: number } }>;
    expect(all.map((row) => [row.user.id, (row as unknown as { overtime_hours: number }).overtime_hours])).toEqual([
      [al, 28],
      [bea, 4],
    ]);
  });

  it('pays the trade to the scheduled person by default, naming who worked it', async () => {
    expect(await paidHours(al)).toEqual({ total: 240, byOthers: [] });
    expect(await paidHours(bea)).toEqual({ total: 216, byOthers: [[String(al), 24]] });
    const all = (await org.get('/payroll', { query: PERIOD })).body as Array<{ user_id: string; total_hours: number }>;
    const sum = (id: number) => all.filter((r) => r.user_id === String(id)).reduce((s, r) => s + r.total_hours, 0);
    expect([sum(al), sum(bea)]).toEqual([240, 216]);
  });

  it('counts and pays it for the worker when the department sets so: 264 h / 52 OT and 192 h / 0', async () => {
    await countFor('worker');
    expect(await overtimeOf(al)).toEqual({ worked: 264, counted: 264, overtime: 52 });
    expect(await overtimeOf(bea)).toEqual({ worked: 192, counted: 192, overtime: 0 });
    expect(await paidHours(al)).toEqual({ total: 264, byOthers: [] });
    expect(await paidHours(bea)).toEqual({ total: 192, byOthers: [] });
    const log = (await org.get('/logs')).body.data[0];
    expect(log.event_description).toMatch(/updated the work period \(trade_hours_count_for\)$/);
    await countFor('scheduled');
    expect(await overtimeOf(al)).toEqual({ worked: 240, counted: 240, overtime: 28 });
  });

  it('refuses an unknown setting with a 422 naming the field, changing nothing', async () => {
    const bad = await org.patch('/work_period', { trade_hours_count_for: 'owner' });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.error_message)).toMatch(/trade hours count for/);
    expect((await org.get('/work_period')).body.trade_hours_count_for).toBe('scheduled');
  });
});
