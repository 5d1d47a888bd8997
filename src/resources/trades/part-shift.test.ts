import { describe, expect, it } from 'vitest';
import { useOrgs } from '../../../test/helpers/server.js';
import { createAssignment, createRotation, placeCrews, workTypeId } from '../rotations/test-fixtures.js';
import { createShift } from '../shifts/test-fixtures.js';
import { filledTrade } from './test-fixtures.js';

/*
 * Part-shift trades, and cancelling or editing a filled trade before it starts, through HTTP.
 * A 24/48 rotation anchored 2031-05-01 on Engine 5 (one seat): crew A works May 1, 4, 7, …; crew B
 * May 2, 5, 8, …; crew C May 3, 6, 9, …. Each test takes its own people and days.
 */
const { server, org } = await useOrgs();
const admin = await org.createUser({ first_name: 'Steve', last_name: 'Boss', role: 'Admin' });
const engine = await createAssignment(org, {
  name: 'Engine 5',
  start: '2031-05-01 07:00:00',
  end: '2031-05-02 07:00:00',
});
const rotation = await createRotation(org, { anchor_date: '2031-05-01' });
const ref = (id: number, name: string) => ({ id, name, href: `${server.url}/v1/users/${id}` });

let crewCount = 0;
/** An owner on crew A and a substitute on crew B (off on crew A's days). */
async function pair() {
  crewCount += 1;
  const owner = await org.createUser({ first_name: 'Olga', last_name: `Owner${crewCount}` });
  const sub = await org.createUser({ first_name: 'Sam', last_name: `Sub${crewCount}` });
  await placeCrews(
    org,
    [
      [owner, 'A'],
      [sub, 'B'],
    ],
    // one pair per crew seat at a time: each pair works only its own stretch of days
    { rotation_id: rotation, assignment_id: engine, start_date: '2031-05-01', end_date: '2031-12-31' },
  );
  return { owner, sub };
}

const trade = (owner: number, sub: number, start: string, end: string, extra = {}) =>
  filledTrade(org, { requester: owner, taker: sub, admin }, start, end, extra);

interface ScheduledShift {
  recurring: boolean;
  start: string;
  end: string;
  user: { id: number };
}

/** Who works Engine 5 on the day (theirs only), and its staffing. */
async function engineDay(date: string, users: number[]) {
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const response = await org.get('/schedule', { query: { start: `${date} 00:00:00`, end: `${next} 00:00:00` } });
  expect(response.status, response.text).toBe(200);
  const day = response.body.days[0].assignments.find((a: { id: number }) => a.id === engine);
  return {
    shifts: (day.shifts as ScheduledShift[])
      .filter((shift) => users.includes(shift.user.id))
      .map((shift) => [shift.user.id, shift.start, shift.end, shift.recurring]),
    open: day.staffing.open as number,
    shortFrom: day.staffing.short_from as string | null,
  };
}

async function paid(userId: number, start: string, end: string) {
  const response = await org.get(`/payroll/${userId}`, { query: { start, end } });
  expect(response.status, response.text).toBe(200);
  return (
    response.body as Array<{ start: string; end: string; total_hours: number; worked_by?: { user_id: string } }>
  ).map((row) => [row.start, row.end, row.total_hours, row.worked_by?.user_id ?? null]);
}

describe('part-shift trades', () => {
  it('moves only the 12 traded hours of a 24 h tour: schedule, staffing, payroll, overtime, payback', async () => {
    const { owner, sub } = await pair();
    const id = await trade(owner, sub, '2031-05-04 07:00:00', '2031-05-04 19:00:00');
    // the substitute shows for the traded part, the owner for the rest; the seat stays filled
    expect(await engineDay('2031-05-04', [owner, sub])).toEqual({
      shifts: [
        [sub, '2031-05-04 07:00:00', '2031-05-04 19:00:00', false],
        [owner, '2031-05-04 19:00:00', '2031-05-05 07:00:00', false],
      ],
      open: 0,
      shortFrom: null,
    });
    // payroll (§7(p)(3), the default): both halves are the owner's, the traded one worked by the substitute
    const day = { start: '2031-05-04 00:00:00', end: '2031-05-05 00:00:00' };
    expect(await paid(owner, day.start, day.end)).toEqual([
      ['2031-05-04 07:00:00', '2031-05-04 19:00:00', 12, String(sub)],
      ['2031-05-04 19:00:00', '2031-05-05 07:00:00', 12, null],
    ]);
    expect(await paid(sub, day.start, day.end)).toEqual([]);
    // counted for the worker: 12 h each
    expect((await org.patch('/work_period', { trade_hours_count_for: 'worker' })).status).toBe(200);
    expect(await paid(sub, day.start, day.end)).toEqual([['2031-05-04 07:00:00', '2031-05-04 19:00:00', 12, null]]);
    const week = { start: '2031-05-04 07:00:00', end: '2031-05-05 00:00:00' };
    const overtime = async (userId: number) =>
      (await org.get('/overtime', { query: { ...week, user_id: userId } })).body[0]?.worked_hours;
    // a 7-day period of 40 h from May 4 07:00 to May 11 07:00
    const period = { days: 7, threshold_hours: 40, start: '2031-05-04 07:00:00' };
    expect((await org.patch('/work_period', period)).status).toBe(200);
    // owner: May 4 (12 h left), 7, 10 → 12 + 24 + 24 = 60; substitute: May 4 (12 h), 5, 8 → 12 + 48 = 60
    expect([await overtime(owner), await overtime(sub)]).toEqual([60, 60]);
    expect((await org.patch('/work_period', { trade_hours_count_for: 'scheduled' })).status).toBe(200);
    // the owner keeps the tour's 24 h: 72; the substitute only their own tours: 48
    expect([await overtime(owner), await overtime(sub)]).toEqual([72, 48]);
    // the payback ledger: a partial trade moves 12 h
    const balance = (await org.get(`/users/${owner}/trade_balance`)).body;
    expect(balance).toMatchObject([{ user: ref(sub, `Sam Sub${crewCount}`), user_owes: 12, owes_user: 0 }]);
    expect(balance[0].trades).toMatchObject([{ id, hours: 12 }]);
  });

  it('a 24 h trade, then a 12 h part-shift trade back, leaves 12 h owed', async () => {
    const { owner, sub } = await pair();
    await trade(owner, sub, '2031-05-07 07:00:00', '2031-05-08 07:00:00');
    await trade(sub, owner, '2031-05-08 19:00:00', '2031-05-09 07:00:00');
    expect((await org.get(`/users/${owner}/trade_balance`)).body).toMatchObject([
      { user_owes: 12, owes_user: 0, worked_for_user: 24, user_worked: 12 },
    ]);
    expect(await engineDay('2031-05-08', [owner, sub])).toMatchObject({
      shifts: [
        [sub, '2031-05-08 07:00:00', '2031-05-08 19:00:00', false],
        [owner, '2031-05-08 19:00:00', '2031-05-09 07:00:00', false],
      ],
      open: 0,
    });
  });

  it('trades a middle part, leaving the owner the hours before and after', async () => {
    const { owner, sub } = await pair();
    await trade(owner, sub, '2031-05-10 12:00:00', '2031-05-10 20:30:00');
    expect((await engineDay('2031-05-10', [owner, sub])).shifts).toEqual([
      [owner, '2031-05-10 07:00:00', '2031-05-10 12:00:00', false],
      [sub, '2031-05-10 12:00:00', '2031-05-10 20:30:00', false],
      [owner, '2031-05-10 20:30:00', '2031-05-11 07:00:00', false],
    ]);
  });

  it('trades the second half of a 25 h tour across the fall change: 13 real hours move', async () => {
    // Chicago falls back on 2031-11-02 at 02:00: crew B's tour of Nov 1 is 25 h, its night half 13 h
    const owner = await org.createUser({ first_name: 'Fay', last_name: 'Fall' });
    const sub = await org.createUser({ first_name: 'Sid', last_name: 'Fall' });
    await placeCrews(
      org,
      [
        [owner, 'B'],
        [sub, 'A'],
      ],
      { rotation_id: rotation, assignment_id: engine, start_date: '2031-10-25', end_date: '2031-11-10' },
    );
    const id = await trade(owner, sub, '2031-11-01 19:00:00', '2031-11-02 07:00:00');
    expect(await engineDay('2031-11-01', [owner, sub])).toEqual({
      shifts: [
        [owner, '2031-11-01 07:00:00', '2031-11-01 19:00:00', false],
        [sub, '2031-11-01 19:00:00', '2031-11-02 07:00:00', false],
      ],
      open: 0,
      shortFrom: null,
    });
    const day = { start: '2031-11-01 00:00:00', end: '2031-11-02 00:00:00' };
    expect(await paid(owner, day.start, day.end)).toEqual([
      ['2031-11-01 07:00:00', '2031-11-01 19:00:00', 12, null],
      ['2031-11-01 19:00:00', '2031-11-02 07:00:00', 13, String(sub)],
    ]);
    const balance = (await org.get(`/users/${owner}/trade_balance`)).body;
    expect(balance).toMatchObject([{ user_owes: 13, owes_user: 0 }]);
    expect(balance[0].trades).toMatchObject([{ id, hours: 13 }]);
  });

  it('refuses bad part-shift input with a 422 naming the field, writing nothing', async () => {
    const { owner, sub } = await pair();
    const ask = (start: string, end: string) =>
      org.post('/trades', { requesting_user: owner, accepting_user_id: sub, approving_user_id: admin, start, end });
    const works = `Olga Owner${crewCount} works 2031-05-13 07:00:00 to 2031-05-14 07:00:00`;
    expect(await ask('2031-05-13 07:00:00', '2031-05-13 07:45:00')).toBeInvalid([
      'The period of a part-shift trade must be at least one hour: 2031-05-13 07:00:00 to 2031-05-13 07:45:00.',
    ]);
    expect(await ask('2031-05-13 07:00:10', '2031-05-13 19:00:30')).toBeInvalid([
      'The start of a part-shift trade must be on the minute.',
      'The end of a part-shift trade must be on the minute.',
    ]);
    expect(await ask('2031-05-13 05:00:00', '2031-05-13 19:00:00')).toBeInvalid([
      `The start 2031-05-13 05:00:00 lies outside the shift the trade cuts: ${works}.`,
    ]);
    expect(await ask('2031-05-13 19:00:00', '2031-05-14 09:00:00')).toBeInvalid([
      `The end 2031-05-14 09:00:00 lies outside the shift the trade cuts: ${works}.`,
    ]);
    const listed = (await org.get('/trades', { query: { user_id: owner } })).body;
    expect(listed).toEqual([]);
  });
});

describe('cancelling or editing a filled trade before it starts', () => {
  it('cancelling an approved (filled) whole-tour trade puts the occurrence back, logged', async () => {
    const { owner, sub } = await pair();
    const before = await engineDay('2031-05-16', [owner, sub]);
    expect(before.shifts).toEqual([[owner, '2031-05-16 07:00:00', '2031-05-17 07:00:00', true]]);
    const id = await trade(owner, sub, '2031-05-16 07:00:00', '2031-05-17 07:00:00');
    expect((await engineDay('2031-05-16', [owner, sub])).shifts).toEqual([
      [sub, '2031-05-16 07:00:00', '2031-05-17 07:00:00', false],
    ]);
    const cancelled = await org.patch(`/trades/${id}`, { action: 'cancel' });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.trade_status).toBe('cancelled');
    expect(await engineDay('2031-05-16', [owner, sub])).toEqual(before);
    expect((await org.get('/shifts', { query: { user_id: sub } })).body).toEqual([]);
    expect((await org.get(`/users/${owner}/trade_balance`)).body).toEqual([]);
    const log = (await org.get('/logs')).body.data[0];
    expect(log.event_description).toBe(
      `Olga Owner${crewCount} cancelled trade #${id} of Olga Owner${crewCount} ` +
        '(2031-05-16 07:00:00 to 2031-05-17 07:00:00); its work moved back.',
    );
    // a second cancel is refused in words
    expect(await org.patch(`/trades/${id}`, { action: 'cancel' })).toBeInvalid([`Trade #${id} is cancelled.`]);
  });

  it('cancelling a part-shift trade removes the split and restores the tour', async () => {
    const { owner, sub } = await pair();
    const before = await engineDay('2031-05-19', [owner, sub]);
    const id = await trade(owner, sub, '2031-05-19 07:00:00', '2031-05-19 19:00:00');
    expect((await org.patch(`/trades/${id}`, { action: 'cancel' })).status).toBe(200);
    expect(await engineDay('2031-05-19', [owner, sub])).toEqual(before);
  });

  it('editing a filled trade moves its work back and again under the new hours', async () => {
    const { owner, sub } = await pair();
    const id = await trade(owner, sub, '2031-05-22 07:00:00', '2031-05-22 19:00:00');
    const edited = await org.patch(`/trades/${id}`, {
      action: 'edit',
      start: '2031-05-22 19:00:00',
      end: '2031-05-23 07:00:00',
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.trade_status).toBe('filled');
    expect((await engineDay('2031-05-22', [owner, sub])).shifts).toEqual([
      [owner, '2031-05-22 07:00:00', '2031-05-22 19:00:00', false],
      [sub, '2031-05-22 19:00:00', '2031-05-23 07:00:00', false],
    ]);
    expect((await org.get('/logs')).body.data[0].event_description).toMatch(
      /; its work moved back and moved again; now 2031-05-22 19:00:00 to 2031-05-23 07:00:00\.$/,
    );
  });

  it('refuses to cancel or edit a filled trade once it has started', async () => {
    const owner = await org.createUser({ first_name: 'Ned', last_name: 'Now' });
    const sub = await org.createUser({ first_name: 'Pat', last_name: 'Now' });
    const local = (at: number) => new Date(at).toLocaleString('sv-SE', { timeZone: org.timezone }).replace('T', ' ');
    const startsAt = Date.now() + 8_000;
    const [start, end] = [local(startsAt), local(startsAt + 3_600_000)];
    const shift = await createShift(org, engine, owner, start, end, { work_type_id: await workTypeId(org) });
    const id = await trade(owner, sub, start, end);
    await new Promise((resolve) => setTimeout(resolve, startsAt + 1_000 - Date.now()));
    const message =
      `Trade #${id} started at ${start}: ` + 'a filled trade can be cancelled or edited only before it starts.';
    expect(await org.patch(`/trades/${id}`, { action: 'cancel' })).toBeInvalid([message]);
    expect(await org.patch(`/trades/${id}`, { action: 'edit', notes: 'late' })).toBeInvalid([message]);
    expect((await org.get(`/shifts/${shift.body.id}`)).body.user.id).toBe(sub);
  });

  it('of 50 parallel approvals one fills the trade; of 50 parallel cancels one moves it back', async () => {
    const { owner, sub } = await pair();
    const before = await engineDay('2031-05-25', [owner, sub]);
    const requested = await org.post('/trades', {
      requesting_user: owner,
      accepting_user_id: sub,
      approving_user_id: admin,
      start: '2031-05-25 07:00:00',
      end: '2031-05-26 07:00:00',
    });
    const id = requested.body.id as number;
    const approvals = await Promise.all(
      Array.from({ length: 50 }, () => org.patch(`/trades/${id}`, { action: 'approve' })),
    );
    expect(approvals.filter((r) => r.status === 200)).toHaveLength(1);
    expect(approvals.filter((r) => r.status !== 200).every((r) => [409, 422].includes(r.status))).toBe(true);
    expect((await org.get('/shifts', { query: { user_id: sub } })).body).toHaveLength(1);
    const cancels = await Promise.all(
      Array.from({ length: 50 }, () => org.patch(`/trades/${id}`, { action: 'cancel' })),
    );
    expect(cancels.filter((r) => r.status === 200)).toHaveLength(1);
    expect(cancels.filter((r) => r.status !== 200).every((r) => [409, 422].includes(r.status))).toBe(true);
    expect(await engineDay('2031-05-25', [owner, sub])).toEqual(before);
    expect((await org.get('/shifts', { query: { user_id: sub } })).body).toEqual([]);
  });
});
