import { describe, expect, it } from 'vitest';
import { useOrgs } from '../../../test/helpers/server.js';
import { Temporal } from '../../core/time.js';
import { createAssignment, createRotation, placeOnRotation } from '../rotations/test-fixtures.js';
import { createTimeOff } from '../time-offs/test-fixtures.js';

/*
 * Date-only leave follows the person's tours after a platoon move (docs/time-off.md#date-only-leave):
 * it covers the work that starts on its dates as the schedule stands now, and the bank follows. A
 * 24/48 rotation anchored on day 0, 60 days from today: crew A works days 0, 3, 6, …; B days 1, 4,
 * 7, …; C days 2, 5, 8, … (07:00 to 07:00). Ray (crew A) takes vacation dated day 5, a day off.
 */

const { server } = await useOrgs();
const anchor = Temporal.Now.plainDateISO().add({ days: 60 });
const day = (n: number) => anchor.add({ days: n }).toString();

async function scene(options: { pending?: boolean } = {}) {
  const org = await server.newOrg({ timezone: 'America/Chicago' });
  const admin = await org.createUser({ first_name: 'Pat', last_name: 'Chief', role: 'Admin' });
  const ray = await org.createUser({ first_name: 'Ray', last_name: 'Smoke' });
  const engine = await createAssignment(org, {
    name: 'Engine 1',
    start: `${day(0)} 07:00:00`,
    end: `${day(1)} 07:00:00`,
  });
  const rotation = await createRotation(org, { anchor_date: day(0) });
  const series = await placeOnRotation(org, {
    user_id: ray,
    rotation_id: rotation,
    assignment_id: engine,
    crew: 'A',
    start_date: day(0),
  });
  const type = await org.post('/time_off_types', { label: 'Vacation', work_code: 'VAC' });
  expect(type.status, type.text).toBe(201);
  const typeId = type.body.id as number;
  const opening = await org.post(`/users/${ray}/timeoff/accrual/bank`, {
    time_off_type_id: typeId,
    hours: 100,
    admin_id: admin,
  });
  expect(opening.status, opening.text).toBe(201);
  const entry = await createTimeOff(org, {
    userId: ray,
    adminId: admin,
    typeId,
    start: day(5),
    end: day(5),
    status: options.pending ? 0 : 1,
  });
  return { org, admin, ray, series, typeId, id: entry.body.id as number };
}

/** The entry's charged segments, its own span and the bank's balance. */
async function story(s: Awaited<ReturnType<typeof scene>>) {
  const segments = await s.org.get(`/time_offs/${s.id}`);
  expect(segments.status, segments.text).toBe(200);
  const items = segments.body.items as Array<{ start: string; end: string; length: number }>;
  const listed = await s.org.get(`/users/${s.ray}/time_offs`, {
    query: { start: `${day(0)} 00:00:00`, end: `${day(20)} 00:00:00` },
  });
  const entry = listed.body.find((e: { id: string }) => e.id === String(s.id));
  const bank = await s.org.get(`/users/${s.ray}/timeoff/accrual/bank`);
  const balance = Number(
    bank.body.find((b: { time_off_type: { id: string } }) => Number(b.time_off_type.id) === s.typeId)?.hours ?? 0,
  );
  return {
    charged: items.reduce((sum, item) => sum + Number(item.length), 0),
    span: [entry.start, entry.end],
    balance,
  };
}

describe('date-only leave after a platoon move', () => {
  it('does not cut the tour of the day before at midnight: moved to B, the tour of day 4 is not covered', async () => {
    const s = await scene();
    expect(await story(s)).toEqual({ charged: 0, span: [`${day(5)} 00:00:00`, `${day(6)} 00:00:00`], balance: 100 });
    const moved = await s.org.patch(`/recurring_shifts/${s.series}`, { crew: 'B', effective_date: day(2) });
    expect(moved.status, moved.text).toBe(200);
    expect(await story(s)).toEqual({ charged: 0, span: [`${day(5)} 07:00:00`, `${day(6)} 00:00:00`], balance: 100 });
  });

  it('takes the whole tour that now starts on the date: moved to C, 24 hours charged and banked', async () => {
    const s = await scene();
    const moved = await s.org.patch(`/recurring_shifts/${s.series}`, { crew: 'C', effective_date: day(2) });
    expect(moved.status, moved.text).toBe(200);
    expect(await story(s)).toEqual({ charged: 24, span: [`${day(5)} 00:00:00`, `${day(6)} 07:00:00`], balance: 76 });
    // moved back to A: the tour is gone and the span with it; the 24 hours are credited back
    const back = await s.org.patch(`/recurring_shifts/${moved.body.id}`, { crew: 'A', effective_date: day(2) });
    expect(back.status, back.text).toBe(200);
    expect(await story(s)).toEqual({ charged: 0, span: [`${day(5)} 00:00:00`, `${day(6)} 00:00:00`], balance: 100 });
  });

  it('a request pending over the move is worked out again when approved', async () => {
    const s = await scene({ pending: true });
    const moved = await s.org.patch(`/recurring_shifts/${s.series}`, { crew: 'C', effective_date: day(2) });
    expect(moved.status, moved.text).toBe(200);
    const approved = await s.org.post(`/time_offs/${s.id}/approve`, { admin_id: s.admin });
    expect(approved.status, approved.text).toBe(200);
    expect(await story(s)).toEqual({ charged: 24, span: [`${day(5)} 00:00:00`, `${day(6)} 07:00:00`], balance: 76 });
  });
});
