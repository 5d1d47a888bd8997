import { describe, expect, it } from 'vitest';
import { useOrgs, type TestOrg } from '../../../test/helpers/server.js';
import { Temporal } from '../../core/time.js';
import { createAssignment, createRotation, placeOnRotation, workTypeId } from '../rotations/test-fixtures.js';
import { createShift } from '../shifts/test-fixtures.js';
import { createTimeOff } from '../time-offs/test-fixtures.js';
import { filledTrade } from '../trades/test-fixtures.js';

/*
 * The bank follows the charge and recall over leave (docs/time-off.md), through the API: after each
 * change the entry's segments, its ledger (with the adjustment row and its cause), payroll and the
 * overtime report agree to the hour. A 24/48 rotation anchored 2027-01-01: crew A works Jan 1, 4,
 * 7, …; B Jan 2, 5, 8, …; C Jan 3, 6, 9, … (07:00 to 07:00). Work periods: 7 days from 07:00.
 */

const { server } = await useOrgs();

interface Scene {
  org: TestOrg;
  admin: number;
  member: number;
  series: number;
  engine: number;
  vacation: number;
}

async function scene(
  crew: string,
  options: { timezone?: string; anchor?: string; opening?: number; callable?: boolean } = {},
): Promise<Scene> {
  const org = await server.newOrg({ timezone: options.timezone ?? 'America/Chicago' });
  const admin = await org.createUser({ first_name: 'Pat', last_name: 'Chief', role: 'Admin' });
  const member = await org.createUser({ first_name: 'Ray', last_name: 'Smoke' });
  const anchor = options.anchor ?? '2027-01-01';
  const engine = await createAssignment(org, {
    name: 'Engine 1',
    start: `${anchor} 07:00:00`,
    end: `${Temporal.PlainDate.from(anchor).add({ days: 1 })} 07:00:00`,
  });
  const rotation = await createRotation(org, { anchor_date: anchor });
  const series = await placeOnRotation(org, {
    user_id: member,
    rotation_id: rotation,
    assignment_id: engine,
    crew,
    start_date: anchor,
  });
  const type = await org.post('/time_off_types', {
    label: 'Vacation',
    work_code: 'VAC',
    ...(options.callable ? { force_include: true } : {}),
  });
  expect(type.status, type.text).toBe(201);
  const vacation = type.body.id as number;
  const opening = await org.post(`/users/${member}/timeoff/accrual/bank`, {
    time_off_type_id: vacation,
    hours: options.opening ?? 100,
    admin_id: admin,
  });
  expect(opening.status, opening.text).toBe(201);
  const period = await org.patch('/work_period', { days: 7, start: `${anchor} 07:00:00` });
  expect(period.status, period.text).toBe(200);
  return { org, admin, member, series, engine, vacation };
}

async function approve(s: Scene, start: string, end: string): Promise<number> {
  const response = await createTimeOff(s.org, {
    userId: s.member,
    adminId: s.admin,
    start,
    end,
    typeId: s.vacation,
    status: 1,
  });
  return (response.body.id ?? response.body.items?.[0]?.id) as number;
}

interface LedgerRow {
  hours: number;
  kind: string;
  time_off_id: number | null;
  notes: string | null;
  cause: { action: string; log_id: number | null } | null;
  flagged_date: string | null;
}

const ledger = async (s: Scene): Promise<LedgerRow[]> => {
  const response = await s.org.get(`/users/${s.member}/timeoff/accrual/transactions`);
  expect(response.status, response.text).toBe(200);
  return response.body;
};

const balance = async (s: Scene): Promise<number> => {
  const response = await s.org.get(`/users/${s.member}/timeoff/accrual/bank`);
  return Number(
    response.body.find((b: { time_off_type: { id: string } }) => Number(b.time_off_type.id) === s.vacation)?.hours ?? 0,
  );
};

const sum = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) * 10_000) / 10_000;

/**
 * Everything that tells the entry's hours, read again: its segments (GET /time_offs), what the ledger
 * holds for it, payroll's time off and worked hours, and the overtime report, over the work period
 * [periodStart, +7 days). Asserts they agree and answers the figures.
 */
async function story(s: Scene, entryId: number, periodStart: string) {
  const end = `${Temporal.PlainDate.from(periodStart.slice(0, 10)).add({ days: 7 })}${periodStart.slice(10)}`;
  const [segments, rows, payroll, overtime] = await Promise.all([
    s.org.get('/time_offs', { query: { start: periodStart, end, user_id: s.member } }),
    ledger(s),
    s.org.get('/payroll', { query: { start: periodStart, end, user_id: s.member } }),
    s.org.get('/overtime', { query: { start: periodStart, end, user_id: s.member } }),
  ]);
  expect(segments.status, segments.text).toBe(200);
  expect(payroll.status, payroll.text).toBe(200);
  expect(overtime.status, overtime.text).toBe(200);
  const items = (segments.body.items as Array<{ id: number; length: number }>).filter((i) => i.id === entryId);
  const charged = sum(items.map((i) => Number(i.length)));
  const banked = -sum(rows.filter((r) => r.time_off_id === entryId).map((r) => r.hours)) || 0;
  const paidOff = sum(
    (payroll.body as Array<{ type: string; total_hours: number }>)
      .filter((r) => r.type === 'time off')
      .map((r) => r.total_hours),
  );
  const worked = sum(
    (payroll.body as Array<{ type: string; total_hours: number }>)
      .filter((r) => r.type === 'work shift')
      .map((r) => r.total_hours),
  );
  const report = (overtime.body as Array<{ period_start: string; worked_hours: number; time_off_hours: number }>).find(
    (r) => r.period_start === periodStart,
  ) ?? { worked_hours: 0, time_off_hours: 0 };
  expect({ banked, paidOff, reportTimeOff: report.time_off_hours, reportWorked: report.worked_hours }).toEqual({
    banked: charged,
    paidOff: charged,
    reportTimeOff: charged,
    reportWorked: worked,
  });
  return { charged, worked, balance: await balance(s), rows };
}

/** The newest system-log entry whose line matches (the change's cause). */
async function logIdOf(s: Scene, line: RegExp): Promise<number> {
  const response = await s.org.get('/logs', { query: { limit: 100 } });
  expect(response.status, response.text).toBe(200);
  const found = (response.body.data as Array<{ log_id: string; event_description: string }>).find((entry) =>
    line.test(entry.event_description),
  );
  expect(found, `${line} in the log`).toBeDefined();
  return Number(found!.log_id);
}

const adjustments = (rows: LedgerRow[], entryId: number) =>
  rows.filter((r) => r.kind === 'time_off_adjustment' && r.time_off_id === entryId);

describe('the bank follows the charge', () => {
  it('a platoon move off the vacation tour credits the 24 hours back, naming the change', async () => {
    const s = await scene('B');
    const entry = await approve(s, '2027-01-05 07:00:00', '2027-01-06 07:00:00');
    const before = await story(s, entry, '2027-01-01 07:00:00');
    expect(before).toMatchObject({ charged: 24, balance: 76 });

    const moved = await s.org.patch(`/recurring_shifts/${s.series}`, { crew: 'C', effective_date: '2027-01-04' });
    expect(moved.status, moved.text).toBe(200);
    const after = await story(s, entry, '2027-01-01 07:00:00');
    expect(after).toMatchObject({ charged: 0, balance: 100 });
    expect(adjustments(after.rows, entry)).toEqual([
      expect.objectContaining({
        hours: 24,
        cause: { action: 'recurring_shift.updated', log_id: await logIdOf(s, /changed the recurring shift/) },
        flagged_date: null,
      }),
    ]);
  });

  it('a platoon move that puts a tour under vacation on a day off debits it', async () => {
    const s = await scene('B');
    const entry = await approve(s, '2027-01-06 07:00:00', '2027-01-07 07:00:00');
    expect(await story(s, entry, '2027-01-01 07:00:00')).toMatchObject({ charged: 0, balance: 100 });

    const moved = await s.org.patch(`/recurring_shifts/${s.series}`, { crew: 'C', effective_date: '2027-01-05' });
    expect(moved.status, moved.text).toBe(200);
    const after = await story(s, entry, '2027-01-01 07:00:00');
    expect(after).toMatchObject({ charged: 24, balance: 76 });
    expect(adjustments(after.rows, entry)).toEqual([
      expect.objectContaining({ hours: -24, cause: expect.objectContaining({ action: 'recurring_shift.updated' }) }),
    ]);
  });

  it('a tour shortened to 07:00-19:00 under vacation charges, pays and banks 12 hours', async () => {
    const s = await scene('B');
    const entry = await approve(s, '2027-01-05 07:00:00', '2027-01-06 07:00:00');
    const shortened = await s.org.post(`/recurring_shifts/${s.series}/exceptions`, {
      date: '2027-01-05',
      action: 'move',
      start: '2027-01-05 07:00:00',
      end: '2027-01-05 19:00:00',
    });
    expect(shortened.status, shortened.text).toBeLessThan(300);
    const after = await story(s, entry, '2027-01-01 07:00:00');
    expect(after).toMatchObject({ charged: 12, balance: 88 });
    expect(adjustments(after.rows, entry)).toEqual([
      expect.objectContaining({
        hours: 12,
        cause: {
          action: 'recurring_shift.occurrence_moved',
          log_id: await logIdOf(s, /moved the 2027-01-05 occurrence/),
        },
      }),
    ]);
    // restoring the occurrence charges the whole tour again, by a second adjustment
    const restored = await s.org.del(`/recurring_shifts/${s.series}/exceptions/2027-01-05`);
    expect(restored.status, restored.text).toBeLessThan(300);
    const again = await story(s, entry, '2027-01-01 07:00:00');
    expect(again).toMatchObject({ charged: 24, balance: 76 });
    expect(adjustments(again.rows, entry).map((r) => r.hours)).toEqual([12, -12]);
  });
});

describe('edits of an assignment or a type move the bank too', () => {
  it("an assignment's times edited to 07:00-19:00 under vacation: 12 hours charged, paid and banked", async () => {
    const s = await scene('B');
    const entry = await approve(s, '2027-01-05 07:00:00', '2027-01-06 07:00:00');
    expect(await story(s, entry, '2027-01-01 07:00:00')).toMatchObject({ charged: 24, balance: 76 });
    const edited = await s.org.patch(`/assignments/${s.engine}`, {
      start: '2027-01-01 07:00:00',
      end: '2027-01-01 19:00:00',
    });
    expect(edited.status, edited.text).toBe(200);
    const after = await story(s, entry, '2027-01-01 07:00:00');
    expect(after).toMatchObject({ charged: 12, balance: 88 });
    expect(adjustments(after.rows, entry)).toEqual([
      expect.objectContaining({
        hours: 12,
        cause: { action: 'assignment.updated', log_id: await logIdOf(s, /updated assignment Engine 1/) },
      }),
    ]);
    // a change that leaves the times alone writes nothing
    expect((await s.org.patch(`/assignments/${s.engine}`, { name: 'Engine One' })).status).toBe(200);
    expect(adjustments((await story(s, entry, '2027-01-01 07:00:00')).rows, entry)).toHaveLength(1);
  });

  it("a type's default day edited from 8 to 10 hours charges a clerk's three days 30 hours", async () => {
    const s = await scene('B');
    const personal = await s.org.post('/time_off_types', { label: 'Personal', work_code: 'PER', default_day_hours: 8 });
    expect(personal.status, personal.text).toBe(201);
    const clerk = await s.org.createUser({ first_name: 'Office', last_name: 'Clerk' });
    const office: Scene = { ...s, member: clerk, vacation: personal.body.id };
    await s.org.post(`/users/${clerk}/timeoff/accrual/bank`, {
      time_off_type_id: office.vacation,
      hours: 40,
      admin_id: s.admin,
    });
    // Monday to Wednesday, midnight to midnight, in the work period from Mon Jan 11 07:00 (7 days)
    const entry = await approve(office, '2027-01-11 00:00:00', '2027-01-14 00:00:00');
    expect(await story(office, entry, '2027-01-08 07:00:00')).toMatchObject({ charged: 24, balance: 16 });
    const edited = await s.org.patch(`/time_off_types/${office.vacation}`, { default_day_hours: 10 });
    expect(edited.status, edited.text).toBe(200);
    const after = await story(office, entry, '2027-01-08 07:00:00');
    expect(after).toMatchObject({ charged: 30, balance: 10 });
    expect(adjustments(after.rows, entry)).toEqual([
      expect.objectContaining({ hours: -6, cause: expect.objectContaining({ action: 'time_off_type.updated' }) }),
    ]);
    // the member on the rotation keeps no Personal entries: nothing written for them
    expect(adjustments(await ledger(s), entry)).toEqual([]);
  });
});

describe('work that leaves the vacation moves the bank too', () => {
  // crew B works Jan 2, 5, 8, …: Jan 6 and 7 are days off, where a one-off shift is the only work
  async function extraShift(s: Scene) {
    const shift = await createShift(s.org, s.engine, s.member, '2027-01-06 08:00:00', '2027-01-06 20:00:00', {
      work_type_id: await workTypeId(s.org),
    });
    const entry = await approve(s, '2027-01-06 07:00:00', '2027-01-07 07:00:00');
    expect(await story(s, entry, '2027-01-01 07:00:00')).toMatchObject({ charged: 12, balance: 88 });
    return { shift: shift.body.id as number, entry };
  }

  it('a one-off shift under vacation deleted: the 12 hours are credited back, naming the deletion', async () => {
    const s = await scene('B');
    const { shift, entry } = await extraShift(s);
    const removed = await s.org.del(`/shifts/${shift}`);
    expect(removed.status, removed.text).toBeLessThan(300);
    const after = await story(s, entry, '2027-01-01 07:00:00');
    expect(after).toMatchObject({ charged: 0, balance: 100 });
    expect(adjustments(after.rows, entry)).toEqual([
      expect.objectContaining({
        hours: 12,
        cause: { action: 'shift.deleted', log_id: await logIdOf(s, /deleted the shift of Ray Smoke/) },
      }),
    ]);
  });

  it('a one-off shift under vacation moved to a free day: credited back, and debited when moved back', async () => {
    const s = await scene('B');
    const { shift, entry } = await extraShift(s);
    const moved = await s.org.patch(`/shifts/${shift}`, {
      date: '2027-01-07',
      start: '2027-01-07 08:00:00',
      end: '2027-01-07 20:00:00',
    });
    expect(moved.status, moved.text).toBe(200);
    expect(await story(s, entry, '2027-01-01 07:00:00')).toMatchObject({ charged: 0, balance: 100 });
    const back = await s.org.patch(`/shifts/${shift}`, {
      date: '2027-01-06',
      start: '2027-01-06 08:00:00',
      end: '2027-01-06 14:00:00',
      force: true,
    });
    expect(back.status, back.text).toBe(200);
    const after = await story(s, entry, '2027-01-01 07:00:00');
    // moved back with force, the shift is worked over the vacation: nothing charged
    expect(after).toMatchObject({ charged: 0, balance: 100 });
    expect(adjustments(after.rows, entry).map((r) => [r.hours, r.cause?.action])).toEqual([[12, 'shift.updated']]);
  });

  it('a vacation tour traded away is credited back; the trade cancelled debits it again', async () => {
    // dates ahead of today: a trade is approved and cancelled only before it starts
    const anchor = Temporal.Now.plainDateISO('America/Chicago').add({ days: 10 });
    const s = await scene('A', { anchor: anchor.toString() });
    const tour = anchor.add({ days: 3 }); // crew A works the anchor, +3, +6, …
    const [start, end] = [`${tour} 07:00:00`, `${tour.add({ days: 1 })} 07:00:00`];
    const entry = await approve(s, start, end);
    const period = `${anchor} 07:00:00`;
    expect(await story(s, entry, period)).toMatchObject({ charged: 24, balance: 76 });
    const sub = await s.org.createUser({ first_name: 'Sam', last_name: 'Swap' });
    const trade = await filledTrade(s.org, { requester: s.member, taker: sub, admin: s.admin }, start, end);
    const traded = await story(s, entry, period);
    expect(traded).toMatchObject({ charged: 0, balance: 100 });
    expect(adjustments(traded.rows, entry)).toEqual([
      expect.objectContaining({
        hours: 24,
        cause: { action: 'trade.approve', log_id: await logIdOf(s, new RegExp(`approved trade #${trade} `)) },
      }),
    ]);
    const cancelled = await s.org.patch(`/trades/${trade}`, { action: 'cancel' });
    expect(cancelled.status, cancelled.text).toBe(200);
    const back = await story(s, entry, period);
    expect(back).toMatchObject({ charged: 24, balance: 76 });
    expect(adjustments(back.rows, entry).map((r) => [r.hours, r.cause?.action])).toEqual([
      [24, 'trade.approve'],
      [-24, 'trade.cancel'],
    ]);
  });
});

describe('recall over leave', () => {
  it('recalled onto the own vacation tour: 24 hours worked and paid once, no vacation, 24 credited back', async () => {
    const s = await scene('B');
    const entry = await approve(s, '2027-01-05 07:00:00', '2027-01-06 07:00:00');
    const before = await story(s, entry, '2027-01-01 07:00:00');
    expect(before).toMatchObject({ charged: 24, balance: 76 });

    const recall = await createShift(s.org, s.engine, s.member, '2027-01-05 07:00:00', '2027-01-06 07:00:00', {
      work_type_id: await workTypeId(s.org),
      admin_id: s.admin,
      force: true,
    });
    const after = await story(s, entry, '2027-01-01 07:00:00');
    expect(after).toMatchObject({ charged: 0, balance: 100, worked: before.worked + 24 });
    expect(adjustments(after.rows, entry)).toEqual([
      expect.objectContaining({
        hours: 24,
        cause: { action: 'shift.created', log_id: await logIdOf(s, /scheduled a shift for Ray Smoke/) },
      }),
    ]);
    // the recall removed: the vacation covers the tour again
    const removed = await s.org.del(`/shifts/${recall.body.id}`);
    expect(removed.status, removed.text).toBeLessThan(300);
    expect(await story(s, entry, '2027-01-01 07:00:00')).toMatchObject({ charged: 24, balance: 76 });
  });

  it('a callback accepted over the own (callable) vacation tour credits the hours it works', async () => {
    const s = await scene('B', { callable: true });
    const entry = await approve(s, '2027-01-05 07:00:00', '2027-01-06 07:00:00');
    const ladder = await createAssignment(s.org, { name: 'Ladder 1', start: '2027-01-01 07:00:00' });
    const list = await s.org.post('/lists', { name: 'Overtime', contact_window_minutes: 30 });
    expect(list.status, list.text).toBe(201);
    expect((await s.org.put(`/users/${s.member}/titles`, { ids: [list.body.id] })).status).toBe(200);
    const callback = await s.org.post('/callbacks', {
      list_id: list.body.id,
      initiated_by: s.admin,
      assignment_id: ladder,
      start: '2027-01-05 07:00:00',
      end: '2027-01-05 19:00:00',
      positions_to_fill: 1,
      deadline: '2035-01-01T00:00:00+00:00',
    });
    expect(callback.status, callback.text).toBe(201);
    const accepted = await s.org.post(`/callbacks/${callback.body.id}/users`, {
      user_id: s.member,
      status: 'accepted',
    });
    expect(accepted.status, accepted.text).toBe(200);
    const after = await story(s, entry, '2027-01-01 07:00:00');
    expect(after).toMatchObject({ charged: 12, balance: 88 });
    expect(adjustments(after.rows, entry)).toEqual([
      expect.objectContaining({ hours: 12, cause: expect.objectContaining({ action: 'callback.accepted' }) }),
    ]);
  });

  it('a DST tour (23 h) recalled for its last 11 hours keeps 12 hours of vacation', async () => {
    // America/New_York springs forward on 2027-03-14 at 02:00: crew C's tour of 03-13 is 23 hours
    const s = await scene('C', { timezone: 'America/New_York' });
    const entry = await approve(s, '2027-03-13 07:00:00', '2027-03-14 07:00:00');
    expect(await story(s, entry, '2027-03-12 07:00:00')).toMatchObject({ charged: 23, balance: 77 });
    await createShift(s.org, s.engine, s.member, '2027-03-13 19:00:00', '2027-03-14 07:00:00', {
      work_type_id: await workTypeId(s.org),
      force: true,
    });
    const after = await story(s, entry, '2027-03-12 07:00:00');
    expect(after).toMatchObject({ charged: 12, balance: 88 });
    expect(adjustments(after.rows, entry).map((r) => r.hours)).toEqual([11]);
  });

  it('a change reaching into a finalized day lands in the open period, flagged in payroll', async () => {
    const today = Temporal.Now.plainDateISO('America/Chicago');
    const anchor = today.subtract({ days: 30 }).toString();
    const s = await scene('A', { anchor });
    const day = today.subtract({ days: 9 }).toString(); // 21 days after the anchor: crew A works it
    const next = Temporal.PlainDate.from(day).add({ days: 1 }).toString();
    const entry = await approve(s, `${day} 07:00:00`, `${next} 07:00:00`);
    expect(await balance(s)).toBe(76);
    const finalized = await s.org.post('/finalization', {
      admin_id: s.admin,
      assignments: [{ id: s.engine, dates: [day] }],
    });
    expect(finalized.status, finalized.text).toBe(200);

    await createShift(s.org, s.engine, s.member, `${day} 07:00:00`, `${next} 07:00:00`, {
      work_type_id: await workTypeId(s.org),
      force: true,
    });
    const rows = adjustments(await ledger(s), entry);
    expect(rows).toEqual([expect.objectContaining({ hours: 24, flagged_date: day })]);
    expect(await balance(s)).toBe(100);
    const open = await s.org.get('/payroll', {
      query: { start: `${today} 00:00:00`, end: `${today.add({ days: 1 })} 00:00:00`, user_id: s.member },
    });
    expect(open.status, open.text).toBe(200);
    expect(open.body.filter((r: { type: string }) => r.type === 'adjustment')).toEqual([
      expect.objectContaining({
        type: 'adjustment',
        user_id: String(s.member),
        work_type: 'Vacation',
        work_code: 'VAC',
        total_hours: -24,
        flagged_date: day,
        notes: expect.stringContaining('shift.created'),
      }),
    ]);
  });
});

describe('closed payroll periods', () => {
  it('a change reaching into a closed period lands in the open one, flagged; reopened, it is not', async () => {
    const today = Temporal.Now.plainDateISO('America/Chicago');
    const s = await scene('A', { anchor: today.subtract({ days: 30 }).toString() });
    const day = today.subtract({ days: 9 }).toString(); // 21 days after the anchor: crew A works it
    const next = Temporal.PlainDate.from(day).add({ days: 1 }).toString();
    const entry = await approve(s, `${day} 07:00:00`, `${next} 07:00:00`);
    const closed = await s.org.patch('/payroll_close', { closed_through: today.subtract({ days: 2 }).toString() });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body.payroll_close).toEqual({ closed_through: today.subtract({ days: 2 }).toString() });

    await createShift(s.org, s.engine, s.member, `${day} 07:00:00`, `${day} 19:00:00`, {
      work_type_id: await workTypeId(s.org),
      force: true,
    });
    expect(adjustments(await ledger(s), entry)).toEqual([
      expect.objectContaining({ hours: 12, flagged_date: day, notes: expect.stringContaining(`${day}, closed`) }),
    ]);
    const open = await s.org.get('/payroll', {
      query: { start: `${today} 00:00:00`, end: `${today.add({ days: 1 })} 00:00:00`, user_id: s.member },
    });
    expect(open.body.filter((r: { type: string }) => r.type === 'adjustment')).toEqual([
      expect.objectContaining({ total_hours: -12, flagged_date: day }),
    ]);

    // reopened: the next change into that day is an ordinary adjustment
    expect((await s.org.patch('/payroll_close', { closed_through: null })).body.payroll_close).toEqual({
      closed_through: null,
    });
    await createShift(s.org, s.engine, s.member, `${day} 19:00:00`, `${next} 07:00:00`, {
      work_type_id: await workTypeId(s.org),
      force: true,
    });
    expect(adjustments(await ledger(s), entry).map((r) => [r.hours, r.flagged_date])).toEqual([
      [12, day],
      [12, null],
    ]);
    expect(await balance(s)).toBe(100);
  });
});

describe('races', () => {
  it('50 parallel recalls over one vacation leave the ledger equal to the final charge', async () => {
    const s = await scene('B', { opening: 200 });
    // five B tours: 01-02, 01-05, 01-08, 01-11, 01-14 (120 hours)
    const entry = await approve(s, '2027-01-02 07:00:00', '2027-01-15 07:00:00');
    expect(await balance(s)).toBe(80);
    const regular = await workTypeId(s.org);
    const hours = ['02', '05', '08', '11', '14'].flatMap((date) =>
      Array.from({ length: 10 }, (_, k) => ({ date: `2027-01-${date}`, hour: 8 + k })),
    );
    const responses = await Promise.all(
      hours.map(({ date, hour }) =>
        s.org.post('/shifts', {
          assignment_id: s.engine,
          user_id: s.member,
          date,
          start: `${date} ${String(hour).padStart(2, '0')}:00:00`,
          end: `${date} ${String(hour).padStart(2, '0')}:30:00`,
          work_type_id: regular,
          force: true,
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(hours.map(() => 201));
    const rows = (await ledger(s)).filter((r) => r.time_off_id === entry);
    const charged = 120 - 25;
    expect(sum(rows.map((r) => r.hours))).toBe(-charged);
    expect(sum(adjustments(rows, entry).map((r) => r.hours))).toBe(25);
    expect(adjustments(rows, entry)).toHaveLength(50);
    const segments = await s.org.get('/time_offs', {
      query: { start: '2027-01-02 00:00:00', end: '2027-01-16 00:00:00', user_id: s.member },
    });
    expect(sum((segments.body.items as Array<{ length: number }>).map((i) => Number(i.length)))).toBe(charged);
  });
});
