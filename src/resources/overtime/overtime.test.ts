import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { createAssignment, createRotation, placeOnRotation, workTypeId } from '../rotations/test-fixtures.js';
import { createTimeOff } from '../time-offs/test-fixtures.js';

/*
 * Work periods and overtime (docs/schedule.md). Every expected number is worked out by hand in
 * the comments. America/Chicago: DST starts 2027-03-14 at 02:00 (a 07:00→07:00 shift over it is 23 h).
 * 24/48 rotation anchored 2027-01-01: crew A works Jan 1, 4, 7, …; B Jan 2, 5, …; C Jan 3, 6, ….
 */

let server: TestServer;
let fire: TestOrg;
let ems: TestOrg;
let engineId: number;
let alice: number;
let bob: number;
let carl: number;
let bobSeries: number;
let medic: number;

const P1 = { start: '2027-01-03 07:00:00', end: '2027-01-31 07:00:00' };

const row = (_org: TestOrg, userId: number, period: { start: string; end: string }, hours: Record<string, number>) =>
  expect.objectContaining({
    user: { id: userId, href: expect.stringMatching(new RegExp(`/v1/users/${userId}$`)), name: expect.any(String) },
    period_start: period.start,
    period_end: period.end,
    ...hours,
  });

const hours = (
  worked: number,
  timeOff: number,
  counted: number,
  threshold: number,
  regular: number,
  overtime: number,
) => ({
  worked_hours: worked,
  time_off_hours: timeOff,
  counted_hours: counted,
  threshold_hours: threshold,
  regular_hours: regular,
  overtime_hours: overtime,
});

async function overtime(org: TestOrg, start: string, end: string, userId?: number) {
  const response = await org.get('/overtime', { query: { start, end, user_id: userId } });
  expect(response.status, response.text).toBe(200);
  return response.body as Array<Record<string, unknown>>;
}

async function shift(org: TestOrg, body: Record<string, unknown>) {
  const response = await org.post('/shifts', { work_type_id: await workTypeId(org), ...body });
  expect(response.status, response.text).toBe(201);
  return response.body.id as number;
}

beforeAll(async () => {
  server = await startServer();
  fire = await server.newOrg({ timezone: 'America/Chicago' });
  ems = await server.newOrg({ timezone: 'America/Chicago' });

  engineId = await createAssignment(fire, { name: 'Engine 1' });
  const rotationId = await createRotation(fire);
  alice = await fire.createUser({ first_name: 'Alice', last_name: 'Able', employee_id: 'F1' });
  bob = await fire.createUser({ first_name: 'Bob', last_name: 'Baker' });
  carl = await fire.createUser({ first_name: 'Carl', last_name: 'Cole' });
  await placeOnRotation(fire, { user_id: alice, rotation_id: rotationId, assignment_id: engineId, crew: 'A' });
  bobSeries = await placeOnRotation(fire, {
    user_id: bob,
    rotation_id: rotationId,
    assignment_id: engineId,
    crew: 'B',
  });
  await placeOnRotation(fire, { user_id: carl, rotation_id: rotationId, assignment_id: engineId, crew: 'C' });
  const setting = await fire.patch('/work_period', { days: 28, threshold_hours: 212, start: '2027-01-03 07:00:00' });
  expect(setting.status, setting.text).toBe(200);

  medic = await ems.createUser({ first_name: 'Mia', last_name: 'Medic' });
  const setting7 = await ems.patch('/work_period', { days: 7, threshold_hours: 40, start: '2027-01-03 00:00:00' });
  expect(setting7.status, setting7.text).toBe(200);
});
afterAll(() => server.close());

describe('GET /overtime (extension): a 24/48 department on a 28-day, 212-hour period aligned at 07:00', () => {
  it('counts 9 shifts (216 h → 4 h overtime) and 10 shifts (240 h → 28 h overtime)', async () => {
    // P1 = Jan 3 07:00 → Jan 31 07:00.
    // A: Jan 4, 7, …, 28 = 9 shifts (Jan 1's ends Jan 2, Jan 31's starts at the period's end) = 216 h.
    // B: Jan 5, 8, …, 29 = 9 shifts (Jan 2's ends exactly at the period start) = 216 h.
    // C: Jan 3, 6, …, 30 = 10 shifts = 240 h.
    expect(await overtime(fire, P1.start, P1.end)).toEqual([
      row(fire, alice, P1, hours(216, 0, 216, 212, 212, 4)),
      row(fire, bob, P1, hours(216, 0, 216, 212, 212, 4)),
      row(fire, carl, P1, hours(240, 0, 240, 212, 212, 28)),
    ]);
    const [first] = await overtime(fire, P1.start, P1.end, alice);
    expect(first).toEqual({
      user: { id: alice, href: expect.stringMatching(/\/v1\/users\/\d+$/), name: 'Alice Able' },
      employee_id: 'F1',
      period_start: P1.start,
      period_end: P1.end,
      ...hours(216, 0, 216, 212, 212, 4),
    });
  });

  it('reports every period a query overlaps, aligned to the configured start', async () => {
    // a day inside P1 reports the whole of P1
    expect(
      (await overtime(fire, '2027-01-10 00:00:00', '2027-01-11 00:00:00', alice)).map((r) => [
        r.period_start,
        r.period_end,
      ]),
    ).toEqual([[P1.start, P1.end]]);
    // 06:00 to 08:00 on Jan 31 reaches P1 and P2
    // (Jan 31 07:00 → Feb 28 07:00, where A works Jan 31, Feb 3, …, 27 = 10 shifts)
    expect(await overtime(fire, '2027-01-31 06:00:00', '2027-01-31 08:00:00', alice)).toEqual([
      row(fire, alice, P1, hours(216, 0, 216, 212, 212, 4)),
      row(fire, alice, { start: '2027-01-31 07:00:00', end: '2027-02-28 07:00:00' }, hours(240, 0, 240, 212, 212, 28)),
    ]);
  });

  it('counts a trade day for the scheduled member (FLSA §7(p)(3)), or for the worker when set so', async () => {
    // Alice works Bob's Jan 26 shift: Bob's occurrence is removed, Alice gets a one-off shift traded with Bob
    const removed = await fire.post(`/recurring_shifts/${bobSeries}/exceptions`, {
      date: '2027-01-26',
      action: 'remove',
      reason: 'Trade',
    });
    expect(removed.status, removed.text).toBe(201);
    await shift(fire, {
      assignment_id: engineId,
      user_id: alice,
      date: '2027-01-26',
      start: '2027-01-26 07:00:00',
      end: '2027-01-27 07:00:00',
      traded_with: bob,
      work_type_id: await workTypeId(fire, 'Trade'),
    });
    // by default (§7(p)(3)) the 24 h stay Bob's: Alice 216 → 4 overtime, Bob 216 → 4
    const others = async () =>
      (await overtime(fire, P1.start, P1.end)).filter((r) => (r.user as { id: number }).id !== carl);
    expect(await others()).toEqual([
      row(fire, alice, P1, hours(216, 0, 216, 212, 212, 4)),
      row(fire, bob, P1, hours(216, 0, 216, 212, 212, 4)),
    ]);
    // counted for the worker: Alice 216 + 24 = 240 → 28 overtime; Bob 216 − 24 = 192 → none
    expect((await fire.patch('/work_period', { trade_hours_count_for: 'worker' })).status).toBe(200);
    expect(await others()).toEqual([
      row(fire, alice, P1, hours(240, 0, 240, 212, 212, 28)),
      row(fire, bob, P1, hours(192, 0, 192, 212, 192, 0)),
    ]);
    expect((await fire.patch('/work_period', { trade_hours_count_for: 'scheduled' })).status).toBe(200);
  });

  it('takes a vacation shift off the worked hours, counting it back only when its type counts as worked', async () => {
    const admin = await fire.createUser({ first_name: 'Chief', last_name: 'Admin' });
    const type = await fire.post('/time_off_types', { label: 'Vacation', work_code: 'VAC' });
    expect(type.status, type.text).toBe(201);
    const typeId = type.body.id as number;
    await createTimeOff(fire, {
      userId: carl,
      adminId: admin,
      start: '2027-01-06 07:00:00',
      end: '2027-01-07 07:00:00',
      typeId,
      status: 1,
    });
    // Carl: 10 shifts − the Jan 6 one = 9 × 24 = 216 worked; 24 h of time off, not counted → 216 → 4 overtime
    expect(await overtime(fire, P1.start, P1.end, carl)).toEqual([
      row(fire, carl, P1, hours(216, 24, 216, 212, 212, 4)),
    ]);
    const patched = await fire.patch(`/time_off_types/${typeId}`, { counts_as_worked: true });
    expect(patched.status, patched.text).toBe(200);
    // counted back: 216 + 24 = 240 → 28 overtime
    expect(await overtime(fire, P1.start, P1.end, carl)).toEqual([
      row(fire, carl, P1, hours(216, 24, 240, 212, 212, 28)),
    ]);
  });

  it('counts a shift over the spring DST change by its real hours', async () => {
    // P3 = Feb 28 07:00 → Mar 28 07:00. C works Mar 1, 4, 7, 10, 13, 16, 19, 22, 25 = 9 shifts;
    // Mar 13 07:00 → Mar 14 07:00 crosses 02:00 → 03:00 and lasts 23 h: 8 × 24 + 23 = 215 → 3 overtime
    const P3 = { start: '2027-02-28 07:00:00', end: '2027-03-28 07:00:00' };
    expect(await overtime(fire, P3.start, P3.end, carl)).toEqual([
      row(fire, carl, P3, hours(215, 0, 215, 212, 212, 3)),
    ]);
  });

  it('refuses a bad period or user with 422', async () => {
    const reversed = await fire.get('/overtime', {
      query: { start: '2027-01-10 00:00:00', end: '2027-01-01 00:00:00' },
    });
    expect(reversed.status).toBe(422);
    const unknown = await fire.get('/overtime', { query: { ...P1, user_id: 999_999 } });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.body.error_message)).toMatch(/user id/);
    const missing = await fire.get('/overtime', { query: { start: P1.start } });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body.error_message)).toMatch(/end/);
  });

  it('requires a token', () =>
    expectAuthRequired(
      server,
      'GET',
      `/v1/overtime?start=${encodeURIComponent(P1.start)}&end=${encodeURIComponent(P1.end)}`,
    ));
});

describe('GET /overtime (extension): EMS, 7 days / 40 hours from Sunday 00:00', () => {
  it('splits a shift across the period end by hours, leaves breaks out, adds hold-over and misc hours', async () => {
    const medicUnit = await createAssignment(ems, { name: 'Medic 1' });
    for (const day of ['03', '04', '05', '06']) {
      const extra =
        day === '04'
          ? { break_start: '2027-01-04 12:00:00', break_end: '2027-01-04 12:30:00' }
          : day === '06'
            ? { hold_over: 2 }
            : {};
      await shift(ems, {
        assignment_id: medicUnit,
        user_id: medic,
        date: `2027-01-${day}`,
        start: `2027-01-${day} 08:00:00`,
        end: `2027-01-${day} 20:00:00`,
        ...extra,
      });
    }
    await shift(ems, {
      assignment_id: medicUnit,
      user_id: medic,
      date: '2027-01-09',
      start: '2027-01-09 20:00:00',
      end: '2027-01-10 08:00:00',
    });
    await shift(ems, {
      assignment_id: medicUnit,
      user_id: medic,
      date: '2027-01-16',
      start: '2027-01-16 20:00:00',
      end: '2027-01-17 00:00:00',
      hold_over: 1,
    });
    const misc = await ems.post('/misc_hours', {
      user_id: medic,
      date: '2027-01-08',
      work_type_id: await workTypeId(ems),
      length: 2,
    });
    expect(misc.status, misc.text).toBe(201);
    // week 1 (Jan 3 → Jan 10): 4 × 12 − 0.5 break + 2 hold-over + 2 misc + 4 (Jan 9 20:00 → 24:00)
    // = 55.5 → 15.5 overtime
    // week 2 (Jan 10 → Jan 17): 8 (00:00 → 08:00) + 4 (Jan 16 20:00 → 24:00) = 12 → none
    // week 3 (Jan 17 → Jan 24): the hour held over after the shift that ended at Jan 17 00:00
    expect(await overtime(ems, '2027-01-03 00:00:00', '2027-01-17 00:00:01')).toEqual([
      row(ems, medic, { start: '2027-01-03 00:00:00', end: '2027-01-10 00:00:00' }, hours(55.5, 0, 55.5, 40, 40, 15.5)),
      row(ems, medic, { start: '2027-01-10 00:00:00', end: '2027-01-17 00:00:00' }, hours(12, 0, 12, 40, 12, 0)),
      row(ems, medic, { start: '2027-01-17 00:00:00', end: '2027-01-24 00:00:00' }, hours(1, 0, 1, 40, 1, 0)),
    ]);
  });

  it('counts a DST week by real hours: a night shift across the boundary and the change', async () => {
    const medicUnit = await createAssignment(ems, { name: 'Medic 2' });
    // Mar 13 19:00 → Mar 14 07:00: 5 h in the week ending Mar 14 00:00,
    // and 00:00 → 07:00 less the skipped hour = 6 h after
    await shift(ems, {
      assignment_id: medicUnit,
      user_id: medic,
      date: '2027-03-13',
      start: '2027-03-13 19:00:00',
      end: '2027-03-14 07:00:00',
    });
    for (const day of ['15', '16', '17', '18']) {
      await shift(ems, {
        assignment_id: medicUnit,
        user_id: medic,
        date: `2027-03-${day}`,
        start: `2027-03-${day} 08:00:00`,
        end: `2027-03-${day} 20:00:00`,
      });
    }
    // week Mar 14 → Mar 21: 6 + 4 × 12 = 54 → 14 overtime
    expect(await overtime(ems, '2027-03-07 00:00:00', '2027-03-21 00:00:00')).toEqual([
      row(ems, medic, { start: '2027-03-07 00:00:00', end: '2027-03-14 00:00:00' }, hours(5, 0, 5, 40, 5, 0)),
      row(ems, medic, { start: '2027-03-14 00:00:00', end: '2027-03-21 00:00:00' }, hours(54, 0, 54, 40, 40, 14)),
    ]);
  });
});

describe('GET/PATCH /work_period (extension)', () => {
  it('starts at the defaults: 7 days, 40 hours, from 2023-01-01 00:00:00', async () => {
    const fresh = await server.newOrg();
    expect((await fresh.get('/work_period')).body).toEqual({
      days: 7,
      threshold_hours: 40,
      start: '2023-01-01 00:00:00',
      trade_hours_count_for: 'scheduled',
    });
  });

  it('changes only the fields sent and logs the change', async () => {
    const org = await server.newOrg();
    const changed = await org.patch('/work_period', { days: 28, threshold_hours: 212 });
    expect(changed).toSucceed(200, 'Work period updated successfully.', {
      work_period: { days: 28, threshold_hours: 212, start: '2023-01-01 00:00:00', trade_hours_count_for: 'scheduled' },
    });
    await org.patch('/work_period', { start: '2027-01-03 07:00:00' });
    expect((await org.get('/work_period')).body).toEqual({
      days: 28,
      threshold_hours: 212,
      start: '2027-01-03 07:00:00',
      trade_hours_count_for: 'scheduled',
    });
    expect((await org.get('/logs')).body.data[0].event_description).toMatch(/updated the work period \(start\)$/);
    expect((await ems.get('/work_period')).body).toEqual({
      days: 7,
      threshold_hours: 40,
      start: '2027-01-03 00:00:00',
      trade_hours_count_for: 'scheduled',
    });
  });

  it('refuses bad values with 422 naming each field, and changes nothing', async () => {
    const org = await server.newOrg();
    const bad = await org.patch('/work_period', { days: 6, threshold_hours: 0, start: '2027-13-01 07:00:00' });
    expect(bad.status).toBe(422);
    expect(bad.body.error_message).toEqual([
      'The days must be at least 7.',
      'The threshold hours must be greater than 0.',
      'The start is not a valid date and time (YYYY-MM-DD hh:mm:ss).',
    ]);
    expect((await org.patch('/work_period', { days: 29 })).status).toBe(422);
    expect((await org.patch('/work_period', { days: 14.5 })).status).toBe(422);
    expect((await org.patch('/work_period', { threshold_hours: -1 })).status).toBe(422);
    // undeclared fields are ignored (docs/decisions/0016-request-input-forms.md)
    expect((await org.patch('/work_period', { timezone: 'UTC', name: 'x' })).status).toBe(200);
    expect((await org.get('/work_period')).body).toEqual({
      days: 7,
      threshold_hours: 40,
      start: '2023-01-01 00:00:00',
      trade_hours_count_for: 'scheduled',
    });
  });

  it.each([
    ['0000-01-01 00:00:00', 'The start must be in the years 1970 to 2100.'],
    ['9999-12-31 00:00:00', 'The start must be in the years 1970 to 2100.'],
    [
      '2027-03-14 02:30:00',
      'The start 2027-03-14 02:30:00 does not exist in America/New_York: the clocks skip it (daylight saving time).',
    ],
  ])('refuses the start %s (issue 41, F17), and changes nothing', async (start, message) => {
    const org = await server.newOrg({ timezone: 'America/New_York' });
    const bad = await org.patch('/work_period', { start });
    expect(bad.body).toEqual({ status: 422, error: 'invalid_params', error_message: [message] });
    const both = await org.patch('/work_period', { days: 6, start });
    expect(both.body.error_message).toEqual(['The days must be at least 7.', message]);
    expect((await org.get('/work_period')).body.start).toBe('2023-01-01 00:00:00');
    expect((await org.patch('/work_period', { start: '2027-03-14 01:59:59' })).status).toBe(200);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/v1/work_period');
    await expectAuthRequired(server, 'PATCH', '/v1/work_period', { days: 14 });
  });
});
