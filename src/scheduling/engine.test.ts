import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../test/helpers/server.js';
import {
  createAssignment,
  createQualifier,
  createRotation,
  placeOnRotation,
  workTypeId,
} from '../resources/rotations/test-fixtures.js';
import { createShift } from '../resources/shifts/test-fixtures.js';
import { createTimeOff, postTimeOff } from '../resources/time-offs/test-fixtures.js';

/*
 * The scheduling engine through HTTP: the schedule, time off, the bank, payroll, staffing,
 * vacancies and callbacks tell the same story (docs/schedule.md). Every expected number is worked
 * out by hand in the comments beside it. America/Chicago: DST starts 2027-03-14 02:00.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const addDay = (date: string, days = 1) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

interface Department {
  org: TestOrg;
  engine: number;
  rotation: number;
  admin: number;
  crew: Record<'A' | 'B' | 'C', number>;
}

/**
 * A 24/48 department: Engine 1 07:00→07:00 daily (1 seat), crews A/B/C on a rotation anchored at `anchor` (A works the
 * anchor day).
 */
async function department(anchor: string, options: { preset?: string } = {}): Promise<Department> {
  const org = await server.newOrg({ timezone: 'America/Chicago' });
  const engine = await createAssignment(org, {
    name: 'Engine 1',
    start: `${anchor} 07:00:00`,
    end: `${addDay(anchor)} 07:00:00`,
  });
  const rotation = await createRotation(org, { anchor_date: anchor, preset: options.preset ?? '24/48' });
  const admin = await org.createUser({ first_name: 'Battalion', last_name: 'Chief', role: 'Admin' });
  const crew = { A: 0, B: 0, C: 0 };
  for (const name of ['A', 'B', 'C'] as const) {
    crew[name] = await org.createUser({ first_name: `Crew${name}`, last_name: 'Member' });
    await placeOnRotation(org, {
      user_id: crew[name],
      rotation_id: rotation,
      assignment_id: engine,
      crew: name,
      start_date: anchor,
    });
  }
  return { org, engine, rotation, admin, crew };
}

async function timeOffType(org: TestOrg, label = 'Vacation', extra: Record<string, unknown> = {}): Promise<number> {
  const response = await org.post('/time_off_types', { label, work_code: label.slice(0, 3).toUpperCase(), ...extra });
  expect(response.status, response.text).toBe(201);
  return response.body.id as number;
}

async function timeOff(
  d: Department,
  userId: number,
  typeId: number,
  start: string,
  end: string,
  status = 1,
): Promise<number> {
  const response = await createTimeOff(d.org, { userId, adminId: d.admin, start, end, typeId, status });
  return response.body.id as number;
}

async function schedule(org: TestOrg, start: string, end: string) {
  const response = await org.get('/schedule', { query: { start, end } });
  expect(response.status, response.text).toBe(200);
  return response.body as { days: any[]; prev: { href: string }; next: { href: string } };
}

const shiftsOf = (days: any[], date: string, userId: number) =>
  days
    .find((day) => day.date === date)!
    .assignments.flatMap((a: any) => a.shifts)
    .filter((s: any) => s.user.id === userId)
    .map((s: any) => [s.start, s.end, s.length]);

const segmentsOf = async (org: TestOrg, id: number) =>
  (await org.get(`/time_offs/${id}`)).body.items.map((i: any) => [i.start, i.end, i.length]);

async function bankOf(org: TestOrg, userId: number, typeId: number): Promise<number | undefined> {
  const banks = (await org.get(`/users/${userId}/timeoff/accrual/bank`)).body as Array<{
    hours: number;
    time_off_type: { id: string };
  }>;
  return banks.find((b) => b.time_off_type.id === String(typeId))?.hours;
}

async function payroll(org: TestOrg, userId: number, start: string, end: string) {
  const response = await org.get('/payroll', { query: { start, end, user_id: userId } });
  expect(response.status, response.text).toBe(200);
  return response.body as Array<{ type: string; start: string; end: string; total_hours: number; hold_over?: number }>;
}

const sum = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) * 10_000) / 10_000;

describe('time off on the schedule', () => {
  it('shows leave on the days of the shifts it takes, closing hh:mm:59 to the minute', async () => {
    // crew B works Dec 2, 5, 8, 11, 14
    const d = await department('2026-12-01');
    const vacation = await timeOffType(d.org);
    const id = await timeOff(d, d.crew.B, vacation, '2026-12-08 00:00:00', '2026-12-14 23:59:59');
    // its three shifts; the last from 07:00 to the end of Dec 14: 17 h
    expect(await segmentsOf(d.org, id)).toEqual([
      ['2026-12-08 07:00:00', '2026-12-09 07:00:00', 24],
      ['2026-12-11 07:00:00', '2026-12-12 07:00:00', 24],
      ['2026-12-14 07:00:00', '2026-12-15 00:00:00', 17],
    ]);
    const { days } = await schedule(d.org, '2026-12-07 00:00:00', '2026-12-15 23:59:59');
    expect(days.filter((day) => day.time_off.some((t: any) => t.id === id)).map((day) => day.date)).toEqual([
      '2026-12-08',
      '2026-12-11',
      '2026-12-14',
    ]);
    expect(days.find((day) => day.date === '2026-12-14').time_off[0].end).toBe('2026-12-14 23:59:59');
    // the seat it takes each day: the assignment of the covered shift, the hours covered
    const seatsOn = (date: string) => days.find((day) => day.date === date).time_off[0].seats;
    expect(seatsOn('2026-12-08')).toEqual([
      { assignment_id: d.engine, start: '2026-12-08 07:00:00', end: '2026-12-09 07:00:00' },
    ]);
    expect(seatsOn('2026-12-14')).toEqual([
      { assignment_id: d.engine, start: '2026-12-14 07:00:00', end: '2026-12-15 00:00:00' },
    ]);
    expect(shiftsOf(days, '2026-12-08', d.crew.B)).toEqual([]);
    expect(shiftsOf(days, '2026-12-11', d.crew.B)).toEqual([]);
    // what the leave leaves of the Dec 14 shift: midnight to 07:00
    expect(shiftsOf(days, '2026-12-14', d.crew.B)).toEqual([['2026-12-15 00:00:00', '2026-12-15 07:00:00', 7]]);
    expect(shiftsOf(days, '2026-12-07', d.crew.A)).toEqual([['2026-12-07 07:00:00', '2026-12-08 07:00:00', 24]]);
    const engineOn = (date: string) =>
      days.find((day) => day.date === date).assignments.find((a: any) => a.id === d.engine);
    expect(engineOn('2026-12-08').staffing).toEqual({
      scheduled: 0,
      needed: 1,
      open: 1,
      qualifier_shortfalls: [],
      short_from: '2026-12-08 07:00:00',
      short_until: '2026-12-09 07:00:00',
    });
    expect(engineOn('2026-12-14').staffing).toMatchObject({
      scheduled: 0,
      open: 1,
      short_from: '2026-12-14 07:00:00',
      short_until: '2026-12-15 00:00:00',
    });
    expect(engineOn('2026-12-07').staffing).toMatchObject({ scheduled: 1, open: 0, short_from: null });
  });

  it('lists an entry that ends at shift change on its shift day only', async () => {
    const d = await department('2026-12-01');
    const vacation = await timeOffType(d.org);
    // Dec 1 19:00 to Dec 3 07:00 takes crew B's Dec 2 shift
    const id = await timeOff(d, d.crew.B, vacation, '2026-12-01 19:00:00', '2026-12-03 07:00:00');
    expect(await segmentsOf(d.org, id)).toEqual([['2026-12-02 07:00:00', '2026-12-03 07:00:00', 24]]);
    const { days } = await schedule(d.org, '2026-12-01 00:00:00', '2026-12-03 23:59:59');
    expect(days.filter((day) => day.time_off.length > 0).map((day) => day.date)).toEqual(['2026-12-02']);
  });

  it('gives no seat to leave that covers no scheduled work', async () => {
    const d = await department('2026-12-01');
    const office = await d.org.createUser({ first_name: 'Office', last_name: 'Clerk' });
    const vacation = await timeOffType(d.org);
    const id = await timeOff(d, office, vacation, '2026-12-02 00:00:00', '2026-12-02 23:59:59');
    const { days } = await schedule(d.org, '2026-12-02 00:00:00', '2026-12-02 23:59:59');
    const entry = days[0].time_off.find((t: any) => t.id === id);
    expect(entry.user.id).toBe(office);
    expect(entry).not.toHaveProperty('seats');
  });

  it("refuses a user's overlapping pending or approved entries, naming the other one", async () => {
    const d = await department('2026-12-01');
    const vacation = await timeOffType(d.org);
    const first = await timeOff(d, d.crew.C, vacation, '2026-12-20 07:00:00', '2026-12-22 07:00:00', 0);
    const clash = await postTimeOff(d.org, {
      userId: d.crew.C,
      adminId: d.admin,
      start: '2026-12-21 07:00:00',
      end: '2026-12-23 07:00:00',
      typeId: vacation,
      status: 1,
    });
    expect(clash.status).toBe(422);
    expect(clash.body.error_message).toEqual([
      `The time off overlaps pending time off #${first} of the same user, 2026-12-20 07:00 to 2026-12-22 07:00.`,
    ]);
    // back to back is not an overlap; another user's entry neither
    await timeOff(d, d.crew.C, vacation, '2026-12-22 07:00:00', '2026-12-23 07:00:00');
    await timeOff(d, d.crew.A, vacation, '2026-12-20 07:00:00', '2026-12-22 07:00:00');
  });
});

describe('the bank, the segments and payroll agree', () => {
  it('charges a nine-day vacation over three shifts 71 h across the spring change, and pays 71 h', async () => {
    // crew A works Mar 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31; Mar 13 07:00 → Mar 14 07:00 is 23 h
    const d = await department('2027-03-01');
    const vacation = await timeOffType(d.org);
    await d.org.post(`/users/${d.crew.A}/timeoff/accrual/bank`, {
      time_off_type_id: vacation,
      hours: 200,
      admin_id: d.admin,
    });
    const id = await timeOff(d, d.crew.A, vacation, '2027-03-07 07:00:00', '2027-03-16 07:00:00');
    expect((await segmentsOf(d.org, id)).map((s: any[]) => s[2])).toEqual([24, 24, 23]);
    expect(await bankOf(d.org, d.crew.A, vacation)).toBe(129);
    const rows = await payroll(d.org, d.crew.A, '2027-03-01 00:00:00', '2027-04-01 00:00:00');
    expect(rows.filter((r) => r.type === 'time off').map((r) => [r.start, r.total_hours])).toEqual([
      ['2027-03-07 07:00:00', 24],
      ['2027-03-10 07:00:00', 24],
      ['2027-03-13 07:00:00', 23],
    ]);
    // worked: Mar 1, 4, 16, 19, 22, 25, 28, 31 at 24 h
    const work = rows.filter((r) => r.type === 'work shift');
    expect(work.map((r) => r.start.slice(0, 10))).toEqual([
      '2027-03-01',
      '2027-03-04',
      '2027-03-16',
      '2027-03-19',
      '2027-03-22',
      '2027-03-25',
      '2027-03-28',
      '2027-03-31',
    ]);
    expect(sum(work.map((r) => r.total_hours))).toBe(192);
  });

  it('charges a date-only day 17 h of a 07:00 shift, pays 17 off and 7 worked, none on a day off', async () => {
    // crew A works Feb 1, 4, 7, 10, 13
    const d = await department('2027-02-01');
    const vacation = await timeOffType(d.org);
    await d.org.post(`/users/${d.crew.A}/timeoff/accrual/bank`, {
      time_off_type_id: vacation,
      hours: 100,
      admin_id: d.admin,
    });
    await timeOff(d, d.crew.A, vacation, '2027-02-10 00:00:00', '2027-02-11 00:00:00');
    expect(await bankOf(d.org, d.crew.A, vacation)).toBe(83);
    const rows = await payroll(d.org, d.crew.A, '2027-02-10 00:00:00', '2027-02-12 00:00:00');
    expect(rows.map((r) => [r.type, r.start, r.end, r.total_hours])).toEqual([
      ['time off', '2027-02-10 07:00:00', '2027-02-11 00:00:00', 17],
      ['work shift', '2027-02-11 00:00:00', '2027-02-11 07:00:00', 7],
    ]);
    // Feb 11 07:00 → Feb 12 07:00 is a day off for crew A: nothing scheduled, nothing charged
    const dayOff = await timeOff(d, d.crew.A, vacation, '2027-02-11 07:00:00', '2027-02-12 07:00:00');
    expect(await bankOf(d.org, d.crew.A, vacation)).toBe(83);
    expect(await segmentsOf(d.org, dayOff)).toEqual([['2027-02-11 07:00:00', '2027-02-12 07:00:00', 0]]);
    // two days over one shift: 24 charged, 24 paid
    await timeOff(d, d.crew.A, vacation, '2027-02-13 07:00:00', '2027-02-15 07:00:00');
    expect(await bankOf(d.org, d.crew.A, vacation)).toBe(59);
    const later = await payroll(d.org, d.crew.A, '2027-02-11 00:00:00', '2027-02-16 00:00:00');
    expect(later.filter((r) => r.type === 'time off').map((r) => r.total_hours)).toEqual([24]);
  });

  it('charges office staff the type’s default day', async () => {
    const d = await department('2027-02-01');
    const personal = await timeOffType(d.org, 'Personal', { default_day_hours: 8 });
    const clerk = await d.org.createUser({ first_name: 'Office', last_name: 'Clerk' });
    await d.org.post(`/users/${clerk}/timeoff/accrual/bank`, {
      time_off_type_id: personal,
      hours: 40,
      admin_id: d.admin,
    });
    // Monday to Wednesday, midnight to midnight: 3 days of 8 h
    const id = await timeOff(d, clerk, personal, '2027-02-15 00:00:00', '2027-02-18 00:00:00');
    expect((await segmentsOf(d.org, id)).map((s: any[]) => s[2])).toEqual([8, 8, 8]);
    expect(await bankOf(d.org, clerk, personal)).toBe(16);
    expect(
      sum((await payroll(d.org, clerk, '2027-02-01 00:00:00', '2027-03-01 00:00:00')).map((r) => r.total_hours)),
    ).toBe(24);
  });
});

describe('hold-over', () => {
  it('pays and shows hold-over hours', async () => {
    const d = await department('2027-01-01');
    const regular = await workTypeId(d.org);
    const extra = await d.org.createUser({ first_name: 'Held', last_name: 'Over' });
    await createShift(d.org, d.engine, extra, '2027-01-05 07:00:00', '2027-01-06 07:00:00', {
      work_type_id: regular,
      hold_over: 2,
    });
    const { days } = await schedule(d.org, '2027-01-05 00:00:00', '2027-01-06 00:00:00');
    const item = days[0].assignments[0].shifts.find((s: any) => s.user.id === extra);
    expect([item.length, item.hold_over]).toEqual([26, 2]);
    const rows = await payroll(d.org, extra, '2027-01-05 00:00:00', '2027-01-06 00:00:00');
    expect(rows.map((r) => [r.type, r.total_hours, r.hold_over])).toEqual([['work shift', 26, 2]]);
  });
});

describe('staffing, vacancies and callbacks judge people by their own qualifications', () => {
  it('counts a paramedic by their qualifier or a current certification, not by the shift’s tags', async () => {
    const d = await department('2027-01-01');
    const pm = await createQualifier(d.org, 'Paramedic', 'PM');
    const patched = await d.org.patch(`/assignments/${d.engine}`, {
      qualifiers_needed: [{ id: pm, minimum_staffing: 1 }],
    });
    expect(patched.status, patched.text).toBe(200);
    // crew A holds PM; crew B holds a PM certification expiring Jan 10; crew C holds nothing
    expect((await d.org.post(`/users/${d.crew.A}/qualifiers`, { id: pm })).status).toBe(201);
    const cert = await d.org.post('/certifications', { name: 'Paramedic licence', cert_id: 'pm', created_by: d.admin });
    expect(cert.status, cert.text).toBe(201);
    const held = await d.org.post(`/users/${d.crew.B}/certifications`, { id: cert.body.id, expires_on: '2027-01-10' });
    expect(held.status, held.text).toBe(201);
    const { days } = await schedule(d.org, '2027-01-01 00:00:00', '2027-01-15 00:00:00');
    const staffing = (date: string) =>
      days.find((day) => day.date === date).assignments.find((a: any) => a.id === d.engine).staffing;
    expect(staffing('2027-01-01')).toMatchObject({ scheduled: 1, open: 0, qualifier_shortfalls: [] }); // A
    expect(staffing('2027-01-02')).toMatchObject({ scheduled: 1, open: 0, qualifier_shortfalls: [] }); // B, certified
    expect(staffing('2027-01-03').qualifier_shortfalls).toEqual([{ id: pm, shortcode: 'PM', needed: 1, have: 0 }]); // C
    // B, expired
    expect(staffing('2027-01-11').qualifier_shortfalls).toEqual([{ id: pm, shortcode: 'PM', needed: 1, have: 0 }]);
    const vacancies = await d.org.get('/vacancies', {
      query: { start: '2027-01-01 00:00:00', end: '2027-01-07 00:00:00' },
    });
    expect(vacancies.status, vacancies.text).toBe(200);
    expect(
      vacancies.body.map((v: any) => [
        v.date,
        v.open,
        v.qualifier_shortfalls.map((q: any) => q.shortcode),
        v.people.map((p: any) => p.id),
      ]),
    ).toEqual([
      ['2027-01-03', 0, ['PM'], [d.crew.C]],
      ['2027-01-06', 0, ['PM'], [d.crew.C]],
    ]);
  });

  it('offers a seat short of a paramedic only to free paramedics, and says which vacancy it fills', async () => {
    const d = await department('2027-01-01');
    const pm = await createQualifier(d.org, 'Paramedic', 'PM');
    await d.org.patch(`/assignments/${d.engine}`, { qualifiers_needed: [{ id: pm, minimum_staffing: 1 }] });
    const medic = await d.org.createUser({ first_name: 'Free', last_name: 'Medic' });
    const basic = await d.org.createUser({ first_name: 'Free', last_name: 'Basic' });
    expect((await d.org.post(`/users/${medic}/qualifiers`, { id: pm })).status).toBe(201);
    expect((await d.org.post(`/users/${d.crew.A}/qualifiers`, { id: pm })).status).toBe(201);
    const list = await d.org.post('/lists', { name: 'Overtime' });
    for (const userId of [basic, d.crew.B, medic, d.crew.A])
      await d.org.put(`/users/${userId}/titles`, { ids: [list.body.id] });
    // Jan 3: crew C (no PM) is on Engine 1, which needs a PM
    const body = {
      list_id: list.body.id,
      initiated_by: d.admin,
      assignment_id: d.engine,
      positions_to_fill: 1,
      deadline: '2027-01-03T06:00:00-06:00',
    };
    const short = await d.org.post('/callbacks', { ...body, start: '2027-01-03 07:00:00', end: '2027-01-04 07:00:00' });
    expect(short.status, short.text).toBe(201);
    expect(short.body.vacancy).toEqual({
      assignment_id: d.engine,
      date: '2027-01-03',
      start: '2027-01-03 07:00:00',
      end: '2027-01-04 07:00:00',
      needed: 1,
      scheduled: 1,
      open: 0,
      qualifier_shortfalls: [{ id: pm, shortcode: 'PM', needed: 1, have: 0 }],
      extra_staffing: false,
    });
    // crew B and A are off that day; B and Basic lack PM; crew A holds it and is free
    expect(short.body.candidates.map((c: any) => c.user_id)).toEqual([medic, d.crew.A]);
    expect(short.body.skipped.map((s: any) => [s.user_id, s.reason])).toEqual([
      [basic, 'lacks PM'],
      [d.crew.B, 'lacks PM'],
    ]);
    // Jan 1: crew A (a PM) is on: nothing is short, the callback adds staff; crew A is busy
    const extra = await d.org.post('/callbacks', { ...body, start: '2027-01-01 07:00:00', end: '2027-01-02 07:00:00' });
    expect(extra.status, extra.text).toBe(201);
    expect(extra.body.vacancy).toMatchObject({ open: 0, qualifier_shortfalls: [], extra_staffing: true });
    expect(extra.body.candidates.map((c: any) => c.user_id)).toEqual([basic, d.crew.B, medic]);
    expect(extra.body.skipped).toEqual([
      { user_id: d.crew.A, reason: 'already working 2027-01-01 07:00–07:00 on Engine 1' },
    ]);
    // accepting fills the seat: the vacancy is gone
    const accept = await d.org.post(`/callbacks/${short.body.id}/users`, { user_id: medic, status: 'accepted' });
    expect(accept.status, accept.text).toBe(200);
    const after = await d.org.get('/vacancies', {
      query: { start: '2027-01-03 00:00:00', end: '2027-01-04 00:00:00' },
    });
    expect(after.body).toEqual([]);
  });

  it('lists the candidates of a vacancy: free, qualified, in order', async () => {
    const d = await department('2027-01-01');
    const vacation = await timeOffType(d.org);
    await timeOff(d, d.crew.A, vacation, '2027-01-04 07:00:00', '2027-01-05 07:00:00');
    const response = await d.org.get('/vacancies/candidates', {
      query: { assignment_id: d.engine, date: '2027-01-04' },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.vacancy).toMatchObject({ date: '2027-01-04', open: 1, people: [] });
    const names = (items: any[]) => items.map((i) => i.user.id);
    // A is on leave, B and C are free (off duty); the admin is free too
    expect(names(response.body.candidates).sort()).toEqual([d.admin, d.crew.B, d.crew.C].sort());
    expect(response.body.skipped.map((s: any) => [s.user.id, s.reason])).toEqual([
      [d.crew.A, 'on approved Vacation 2027-01-04 07:00–07:00'],
    ]);
    const none = await d.org.get('/vacancies/candidates', { query: { assignment_id: d.engine, date: '2026-12-01' } });
    expect(none.status).toBe(422);
  });
});

describe('Kelly days', () => {
  it('shows a Kelly day for the member, never as work or pay', async () => {
    // 24/48 with every 7th shift a Kelly day: crew A's shifts Jan 1, 4, …; the 7th (index 6) is Jan 19
    const d = await department('2027-01-01', { preset: '24/48-kelly' });
    const { days } = await schedule(d.org, '2027-01-01 00:00:00', '2027-01-22 00:00:00');
    const kelly = days.filter((day) => day.kelly_days?.some((k: any) => k.user.id === d.crew.A)).map((day) => day.date);
    expect(kelly).toEqual(['2027-01-19']);
    const item = days.find((day) => day.date === '2027-01-19').kelly_days.find((k: any) => k.user.id === d.crew.A);
    expect(item).toMatchObject({
      code: 'KD',
      name: 'Kelly day',
      assignment_id: d.engine,
      start: '2027-01-19 07:00:00',
      end: '2027-01-20 07:00:00',
    });
    expect(shiftsOf(days, '2027-01-19', d.crew.A)).toEqual([]);
    const rows = await payroll(d.org, d.crew.A, '2027-01-19 00:00:00', '2027-01-20 00:00:00');
    expect(rows).toEqual([]);
    expect(days.find((day) => day.date === '2027-01-18').kelly_days).toBeUndefined();
  });
});

describe('schedule links and bounds', () => {
  it('steps whole-day periods by whole days, without drift', async () => {
    const d = await department('2026-11-01');
    const link = (href: string) => Object.fromEntries(new URL(href).searchParams);
    const week = await schedule(d.org, '2026-11-23 00:00:00', '2026-11-29 23:59:59');
    expect(link(week.next.href)).toEqual({ start: '2026-11-30 00:00:00', end: '2026-12-06 23:59:59' });
    expect(link(week.prev.href)).toEqual({ start: '2026-11-16 00:00:00', end: '2026-11-22 23:59:59' });
    let page = week;
    for (let i = 0; i < 8; i += 1) {
      const { start, end } = link(page.next.href);
      page = await schedule(d.org, start!, end!);
    }
    // eight weeks on, across the year end: still Monday 00:00 to Sunday 23:59:59
    expect(link(page.prev.href)).toEqual({ start: '2027-01-11 00:00:00', end: '2027-01-17 23:59:59' });
    const exclusive = await schedule(d.org, '2026-11-23 00:00:00', '2026-11-24 00:00:00');
    expect(link(exclusive.next.href)).toEqual({ start: '2026-11-24 00:00:00', end: '2026-11-25 00:00:00' });
    const month = await schedule(d.org, '2026-11-01 00:00:00', '2026-11-30 23:59:59');
    expect(link(month.next.href)).toEqual({ start: '2026-12-01 00:00:00', end: '2026-12-31 23:59:59' });
    expect(link(month.prev.href)).toEqual({ start: '2026-10-01 00:00:00', end: '2026-10-31 23:59:59' });
    const shift = await schedule(d.org, '2026-11-23 07:00:00', '2026-11-24 07:00:00');
    expect(link(shift.next.href)).toEqual({ start: '2026-11-24 07:00:00', end: '2026-11-25 07:00:00' });
  });

  it('answers 422 naming the supported dates instead of failing at the end of the calendar', async () => {
    const d = await department('2026-11-01');
    const far = await d.org.get('/schedule', { query: { start: '9999-12-01 00:00:00', end: '9999-12-02 00:00:00' } });
    expect(far.status).toBe(200);
    const last = await d.org.get('/schedule', { query: { start: '9999-12-30 00:00:00', end: '9999-12-31 23:59:59' } });
    expect(last.status).toBe(422);
    expect(last.body.error_message).toEqual(['The period must lie between 1900-01-01 and 9999-12-25.']);
    const pay = await d.org.get('/payroll', { query: { start: '9999-12-31 00:00:00', end: '9999-12-31 12:00:00' } });
    expect(pay.status).toBe(422);
  });
});

/**
 * The 28-day department of the scenarios below: crews A/B/C from Mar 1 2027 (A works Mar 1, 4, …, 28; B Mar 2,
 * 5, …; C Mar 3, 6, …), a day EMT on Medic 1, a trade, vacation over the spring change, sick leave and a callback.
 */
async function twentyEightDays() {
  const d = await department('2027-03-01');
  const { org } = d;
  const regular = await workTypeId(org);
  const vacation = await timeOffType(org);
  const sick = await timeOffType(org, 'Sick', { force_include: true });
  const medic = await createAssignment(org, {
    name: 'Medic 1',
    start: '2027-03-01 07:00:00',
    end: '2027-03-01 19:00:00',
  });
  const relief = await org.createUser({ first_name: 'Relief', last_name: 'Firefighter', date_of_hire: '1999-01-01' });
  const emt = await org.createUser({ first_name: 'Day', last_name: 'Emt' });
  for (const userId of [d.crew.A, d.crew.C]) {
    for (const type of [vacation, sick])
      await org.post(`/users/${userId}/timeoff/accrual/bank`, {
        time_off_type_id: type,
        hours: 100,
        admin_id: d.admin,
      });
  }
  // one-off day shifts with a half-hour break on Medic 1, one held over 2 h
  for (const [date, holdOver] of [
    ['2027-03-08', 0],
    ['2027-03-15', 2],
    ['2027-03-22', 0],
  ] as const) {
    const shift = await org.post('/shifts', {
      assignment_id: medic,
      user_id: emt,
      date,
      start: `${date} 07:00:00`,
      end: `${date} 19:00:00`,
      break_start: `${date} 12:00:00`,
      break_end: `${date} 12:30:00`,
      work_type_id: regular,
      hold_over: holdOver,
    });
    expect(shift.status, shift.text).toBe(201);
  }
  // a trade: crew B gives the Mar 5 shift to crew C
  const trade = await org.post('/trades', {
    requesting_user: d.crew.B,
    start: '2027-03-05 07:00:00',
    end: '2027-03-06 07:00:00',
    accepting_user_id: d.crew.C,
    approving_user_id: d.admin,
  });
  expect(trade.status, trade.text).toBe(201);
  expect((await org.patch(`/trades/${trade.body.id}`, { action: 'approve' })).body.trade_status).toBe('filled');
  // vacation over the spring change: crew A's Mar 13 shift is 23 h
  await timeOff(d, d.crew.A, vacation, '2027-03-13 07:00:00', '2027-03-14 07:00:00');
  // crew C goes home sick at 19:00 on Mar 9: 12 h of the shift
  await timeOff(d, d.crew.C, sick, '2027-03-09 19:00:00', '2027-03-10 07:00:00');
  // a callback fills crew A's Mar 13 seat with the relief firefighter
  const list = await org.post('/lists', { name: 'Overtime' });
  await org.put(`/users/${relief}/titles`, { ids: [list.body.id] });
  const callback = await org.post('/callbacks', {
    list_id: list.body.id,
    initiated_by: d.admin,
    assignment_id: d.engine,
    start: '2027-03-13 07:00:00',
    end: '2027-03-14 07:00:00',
    positions_to_fill: 1,
    deadline: '2027-03-13T06:00:00-06:00',
  });
  expect(callback.status, callback.text).toBe(201);
  expect(callback.body.vacancy).toMatchObject({ date: '2027-03-13', open: 1 });
  expect((await org.post(`/callbacks/${callback.body.id}/users`, { user_id: relief, status: 'accepted' })).status).toBe(
    200,
  );
  const period = { start: '2027-03-01 07:00:00', end: '2027-03-29 07:00:00' };
  return {
    d,
    org,
    regular,
    vacation,
    medic,
    relief,
    emt,
    period,
    listId: list.body.id as number,
    callbackId: callback.body.id as number,
  };
}

/**
 * The period's story as each reader tells it: payroll's rows (paid to the scheduled person, FLSA §7(p)(3), naming
 * who worked them), the schedule's shifts, the segments, the bank's ledger and the engine's overtime report over one
 * 28-day work period of 212 h aligned at shift change.
 */
async function story(org: TestOrg, period: { start: string; end: string }) {
  const rows = (await org.get('/payroll', { query: period })).body as Array<{
    type: string;
    user_id: string;
    total_hours: number;
    worked_by?: { user_id: string };
  }>;
  const { days } = await schedule(org, '2027-03-01 00:00:00', '2027-03-28 23:59:59');
  const shifts = days.flatMap((day) => day.assignments.flatMap((a: any) => a.shifts));
  const segments = (await org.get('/time_offs', { query: { ...period, limit: 1000 } })).body.items as Array<{
    user: { id: number };
    length: number;
    status: number;
  }>;
  expect((await org.patch('/work_period', { days: 28, threshold_hours: 212, start: period.start })).status).toBe(200);
  const overtime = (await org.get('/overtime', { query: period })).body as Array<{
    user: { id: number };
    worked_hours: number;
    time_off_hours: number;
    overtime_hours: number;
  }>;
  const paid = (userId: number, type: string) =>
    sum(rows.filter((r) => r.user_id === String(userId) && r.type === type).map((r) => r.total_hours));
  const workedBy = (userId: number) =>
    sum(
      rows
        .filter((r) => r.type === 'work shift' && (r.worked_by?.user_id ?? r.user_id) === String(userId))
        .map((r) => r.total_hours),
    );
  const engine = (userId: number) => overtime.find((row) => row.user.id === userId);
  /** Schedule hours = payroll = segments = bank debits = the overtime report, to the hour, for each user. */
  const agrees = async (userIds: number[]) => {
    for (const userId of userIds) {
      const shown = sum(shifts.filter((s: any) => s.user.id === userId).map((s: any) => s.length - s.break_length));
      const ledger = (
        (await org.get(`/users/${userId}/timeoff/accrual/transactions`)).body as Array<{ kind: string; hours: number }>
      )
        .filter((t) => t.kind === 'time_off')
        .map((t) => -t.hours);
      expect(engine(userId)?.worked_hours ?? 0, `engine hours of user ${userId}`).toBe(paid(userId, 'work shift'));
      expect(engine(userId)?.time_off_hours ?? 0, `engine time off of user ${userId}`).toBe(paid(userId, 'time off'));
      expect(shown, `schedule hours of user ${userId}`).toBe(workedBy(userId));
      const userSegments = segments.filter((s) => s.user.id === userId && s.status === 1);
      expect(sum(userSegments.map((s) => s.length)), `segments of user ${userId}`).toBe(paid(userId, 'time off'));
      expect(sum(ledger), `bank debits of user ${userId}`).toBe(paid(userId, 'time off'));
    }
  };
  return { days, paid, workedBy, engine, agrees };
}

describe('one story over a 28-day period', () => {
  it('payroll, the schedule, the bank and the segments agree for every user', async () => {
    const { d, org, relief, emt, period } = await twentyEightDays();
    const { paid, workedBy, agrees } = await story(org, period);
    // by hand: A works Mar 1, 4, 7, 10, 16, 19, 22, 25, 28 = 9 × 24 = 216 (Mar 13 on vacation)
    expect(paid(d.crew.A, 'work shift')).toBe(216);
    // B works Mar 2, 8, 11, 14, 17, 20, 23, 26 = 8 × 24 = 192 (Mar 5 traded away), and is paid the
    // traded Mar 5 too (FLSA §7(p)(3), the default): 216
    expect(workedBy(d.crew.B)).toBe(192);
    expect(paid(d.crew.B, 'work shift')).toBe(216);
    // C works Mar 3, 6, 12, 15, 18, 21, 24, 27 at 24 + Mar 9 until 19:00 (12) + the traded Mar 5 (24) = 228,
    // and is paid 204 (the traded Mar 5 is B's hours of work)
    expect(workedBy(d.crew.C)).toBe(228);
    expect(paid(d.crew.C, 'work shift')).toBe(204);
    // relief: the callback's Mar 13 shift, 23 h across the change
    expect(paid(relief, 'work shift')).toBe(23);
    // EMT: 3 × (12 − 0.5) + 2 held over = 36.5
    expect(paid(emt, 'work shift')).toBe(36.5);
    expect(paid(d.crew.A, 'time off')).toBe(23);
    expect(paid(d.crew.C, 'time off')).toBe(12);
    await agrees([d.crew.A, d.crew.B, d.crew.C, relief, emt]);
  });

  it('still tells one story with a limit on medics off, a forced hire and a fatigue refusal overridden', async () => {
    const { d, org, vacation, medic, relief, emt, period } = await twentyEightDays();
    const regular = await workTypeId(org);
    const pm = await createQualifier(org, 'Paramedic', 'PM');
    const baker = await org.createUser({ first_name: 'Medic', last_name: 'Baker' });
    for (const userId of [d.crew.A, relief, baker])
      expect((await org.post(`/users/${userId}/qualifiers`, { id: pm })).status).toBe(201);
    for (const userId of [relief, baker])
      await org.post(`/users/${userId}/timeoff/accrual/bank`, {
        time_off_type_id: vacation,
        hours: 100,
        admin_id: d.admin,
      });
    // Mar 22: crew A's tour, and relief and Baker on Medic 1 from 07:00 to 19:00 beside the EMT
    for (const userId of [relief, baker]) {
      const shift = await org.post('/shifts', {
        assignment_id: medic,
        user_id: userId,
        date: '2027-03-22',
        start: '2027-03-22 07:00:00',
        end: '2027-03-22 19:00:00',
        work_type_id: regular,
      });
      expect(shift.status, shift.text).toBe(201);
    }
    // the contract: at most 2 paramedics off a day; nobody works more than 48 h in a row
    const rule = await org.post('/off_limits', { name: 'Paramedics', max_off: 2, action: 'refuse', qualifier_id: pm });
    expect(rule.status, rule.text).toBe(201);
    expect((await org.patch('/fatigue_rules', { max_consecutive_hours: 48 })).status).toBe(200);

    // two medics off on Mar 22 are approved; the third is refused, naming the rule and who is off
    await timeOff(d, d.crew.A, vacation, '2027-03-22 07:00:00', '2027-03-23 07:00:00');
    await timeOff(d, relief, vacation, '2027-03-22 07:00:00', '2027-03-22 19:00:00');
    const third = await org.post('/time_offs', {
      user_id: baker,
      admin_ids: [d.admin],
      start_date: '2027-03-22 07:00:00',
      end_date: '2027-03-22 19:00:00',
      time_off_type_id: vacation,
      status: 1,
    });
    expect(third.status, third.text).toBe(422);
    expect(third.body.off_limits).toHaveLength(1);
    expect(third.body.off_limits[0]).toMatchObject({
      off_limit: { name: 'Paramedics', max_off: 2 },
      date: '2027-03-22',
    });
    expect(third.body.off_limits[0].others_off.map((o: any) => o.id).sort()).toEqual([d.crew.A, relief].sort());

    // Engine 1 is open on Mar 22: nobody volunteers, so the chief forces a member of Station 1's list. Relief is
    // senior but on leave; C's tour ended at the start (long-tour buffer); B is forced.
    const station = await org.post('/groups', { name: 'Station 1' });
    for (const [userId, hired] of [
      [d.crew.C, '2000-01-01'],
      [d.crew.B, '2001-01-01'],
    ] as const)
      expect((await org.patch(`/users/${userId}`, { date_of_hire: hired })).status).toBeLessThan(300);
    for (const userId of [relief, d.crew.C, d.crew.B])
      expect((await org.put(`/users/${userId}/groups`, { ids: [station.body.id] })).status).toBe(200);
    const list = await org.put(`/groups/${station.body.id}/forced_list`, {
      enabled: false,
      start_within_hours: 12,
      time_off_buffer_hours: 0,
      long_tour_hours: 24,
      long_tour_buffer_hours: 12,
      initiated_by: d.admin,
      assignment_ids: [d.engine],
    });
    expect(list.status, list.text).toBe(200);
    const forced = await org.post('/forced_hires', {
      assignment_id: d.engine,
      start: '2027-03-22 07:00:00',
      end: '2027-03-23 07:00:00',
      ordered_by: d.admin,
    });
    expect(forced.status, forced.text).toBe(201);
    expect(forced.body).toMatchObject({ status: 'forced', user_id: d.crew.B });
    expect(forced.body.order.map((m: any) => [m.user_id, m.verdict])).toEqual([
      [relief, 'skipped'],
      [d.crew.C, 'skipped'],
      [d.crew.B, 'forced'],
    ]);
    expect(forced.body.order[0].reason).toBe('on approved Vacation 2027-03-22 07:00–19:00');
    expect(forced.body.order[1].reason).toMatch(/^inside the long-tour buffer: worked 24 hours \(2027-03-21 07:00/);

    // B now works Mar 22 07:00 to Mar 24 07:00 (48 h): holding him over on Medic 1 breaks the rule
    const holdOver = {
      assignment_id: medic,
      user_id: d.crew.B,
      date: '2027-03-24',
      start: '2027-03-24 07:00:00',
      end: '2027-03-24 19:00:00',
      work_type_id: regular,
    };
    const refused = await org.post('/shifts', holdOver);
    expect(refused.status).toBe(422);
    expect(refused.body.error_message).toEqual([
      "CrewB Member cannot take this shift: would work 60 h in a row; the department's limit is 48 h.",
    ]);
    const overridden = await org.post('/shifts', { ...holdOver, override_reason: 'No other medic on the day' });
    expect(overridden.status, overridden.text).toBe(201);

    const { days, paid, workedBy, engine, agrees } = await story(org, period);
    const engineOn = days.find((day) => day.date === '2027-03-22').assignments.find((a: any) => a.id === d.engine);
    expect(engineOn.staffing).toMatchObject({ scheduled: 1, open: 0 });
    expect(engineOn.shifts.map((s: any) => s.user.id)).toEqual([d.crew.B]);
    // A: 216 less the Mar 22 tour on vacation = 192; off 23 + 24 = 47
    expect([paid(d.crew.A, 'work shift'), paid(d.crew.A, 'time off')]).toEqual([192, 47]);
    // B: 192 worked + the forced Mar 22 (24) + Medic 1 on Mar 24 (12) = 228, paid 216 + 36 = 252: 40 h over 212
    expect([workedBy(d.crew.B), paid(d.crew.B, 'work shift'), engine(d.crew.B)?.overtime_hours]).toEqual([
      228, 252, 40,
    ]);
    // C as before; relief: Mar 13 (23) worked, the Mar 22 day shift (12) off; Baker works the day shift
    expect([workedBy(d.crew.C), paid(d.crew.C, 'work shift')]).toEqual([228, 204]);
    expect([paid(relief, 'work shift'), paid(relief, 'time off')]).toEqual([23, 12]);
    expect([paid(baker, 'work shift'), paid(baker, 'time off')]).toEqual([12, 0]);
    await agrees([d.crew.A, d.crew.B, d.crew.C, relief, emt, baker]);
  });

  it('replays every callback of the period to its stored order; reports hours edited in the database', async () => {
    const { d, org, relief, emt, listId, callbackId } = await twentyEightDays();
    for (const userId of [d.crew.B, d.crew.C, emt])
      expect((await org.put(`/users/${userId}/titles`, { ids: [listId] })).status).toBe(200);
    // extra staff on Engine 1 on Mar 25 (crew A's day), ordered each way; nobody answers
    const ids = [callbackId];
    for (const ordering of ['rotating', 'hours', 'seniority']) {
      const started = await org.post('/callbacks', {
        list_id: listId,
        initiated_by: d.admin,
        assignment_id: d.engine,
        start: '2027-03-25 07:00:00',
        end: '2027-03-26 07:00:00',
        positions_to_fill: 1,
        deadline: '2027-03-25T06:00:00-05:00',
        ordering,
      });
      expect(started.status, started.text).toBe(201);
      ids.push(started.body.id as number);
    }
    for (const id of ids) {
      const replay = await org.get(`/callbacks/${id}/replay`);
      expect(replay.status, replay.text).toBe(200);
      expect(replay.body, `replay of callback ${id}`).toMatchObject({
        recorded: true,
        identical: true,
        differences: [],
      });
      expect(replay.body.replayed_order).toEqual(replay.body.stored_order);
      expect(replay.body.current_order).toEqual(replay.body.stored_order);
    }
    // the members added to the list after the Mar 13 callback are a note on its replay, not a difference
    const first = (await org.get(`/callbacks/${callbackId}/replay`)).body;
    expect(first.notes).toContain(`user #${emt} joined the list after the callback started`);
    // the hours-based callback put relief (23 h taken on Mar 13) last
    const hours = (await org.get(`/callbacks/${ids[2]}/replay`)).body;
    expect(hours.stored_order.at(-1)).toBe(relief);

    // someone shortens relief's Mar 13 callback hours in the database: replay says so
    await server.app.db
      .updateTable('callback_user')
      .set({ end_time: '2027-03-13 19:00:00' })
      .where('callback_id', '=', callbackId)
      .where('user_id', '=', relief)
      .execute();
    const edited = await org.get(`/callbacks/${ids[2]}/replay`);
    expect(edited.body.identical).toBe(false);
    expect(edited.body.input_changes).toEqual([{ user_id: relief, field: 'hours_charged', stored: 23, current: 12 }]);
    expect(edited.body.differences[0]).toBe(`user #${relief}: hours charged was 23, is 12 now`);
    expect(edited.body.replayed_order).toEqual(edited.body.stored_order);
    // the other orderings do not read hours: still identical
    for (const id of [ids[1], ids[3]]) expect((await org.get(`/callbacks/${id}/replay`)).body.identical).toBe(true);
  });
});
