import { describe, expect, it } from 'vitest';
import { useOrgs } from '../../../test/helpers/server.js';
import { Temporal } from '../../core/time.js';
import { createAssignment, createRotation, placeOnRotation } from '../rotations/test-fixtures.js';
import { createTimeOff } from '../time-offs/test-fixtures.js';

/*
 * A platoon move judged like a new absence (docs/contract-rules.md, "Limits on who may be off"): a
 * move that puts a person's tours under their approved leave makes them off on new days, and the
 * off limits judge those days. A 24/48 rotation anchored on day 0, 60 days from today: crew B works
 * days 1, 4, 7, …; crew C days 2, 5, 8, … (07:00 to 07:00). Ollie (crew C) is on vacation on day 5;
 * Ray (crew B) holds vacation on day 5 too, a day off for him, until he moves to C (from day 3).
 */

const { server } = await useOrgs();
const anchor = Temporal.Now.plainDateISO().add({ days: 60 });
const day = (n: number) => anchor.add({ days: n }).toString();
const D5 = day(5);

async function scene(action: string, rayCrew = 'B') {
  const org = await server.newOrg({ timezone: 'America/Chicago' });
  const admin = await org.createUser({ first_name: 'Pat', last_name: 'Chief', role: 'Admin' });
  const ollie = await org.createUser({ first_name: 'Ollie', last_name: 'Other' });
  const ray = await org.createUser({ first_name: 'Ray', last_name: 'Smoke' });
  const engine = await createAssignment(org, {
    name: 'Engine 1',
    positions_to_fill: 2,
    start: `${day(0)} 07:00:00`,
    end: `${day(1)} 07:00:00`,
  });
  const rotation = await createRotation(org, { anchor_date: day(0) });
  await placeOnRotation(org, {
    user_id: ollie,
    rotation_id: rotation,
    assignment_id: engine,
    crew: 'C',
    start_date: day(0),
  });
  const series = await placeOnRotation(org, {
    user_id: ray,
    rotation_id: rotation,
    assignment_id: engine,
    crew: rayCrew,
    start_date: day(0),
  });
  const type = await org.post('/time_off_types', { label: 'Vacation', work_code: 'VAC' });
  expect(type.status, type.text).toBe(201);
  const typeId = type.body.id as number;
  const vacation = { adminId: admin, typeId, start: `${D5} 07:00:00`, end: `${day(6)} 07:00:00`, status: 1 };
  const ollieOff = (await createTimeOff(org, { ...vacation, userId: ollie })).body.id as number;
  await createTimeOff(org, { ...vacation, userId: ray });
  const limit = await org.post('/off_limits', { name: 'One off', max_off: 1, action });
  expect(limit.status, limit.text).toBe(201);
  const notice = (outcome: string) => ({
    off_limit: { id: limit.body.id, name: 'One off', max_off: 1, action },
    date: D5,
    message: `The off limit One off allows at most 1 off on ${D5}; already off: Ollie Other; ${outcome}.`,
    others_off: [{ id: ollie, name: 'Ollie Other', time_off_id: ollieOff }],
  });
  return { org, admin, ray, engine, rotation, series, notice };
}

/** Whether Ray works day 8 (a crew C day, after the move's effective date). */
async function worksDay8(s: Awaited<ReturnType<typeof scene>>) {
  const schedule = await s.org.get('/schedule', { query: { start: day(8), end: day(9) } });
  expect(schedule.status, schedule.text).toBe(200);
  return JSON.stringify(schedule.body).includes('Ray Smoke');
}

describe('a platoon move that puts tours under approved leave meets the off limits', () => {
  it('refuse: a 422 naming the day and the limit; nothing is written', async () => {
    const s = await scene('refuse');
    const before = await s.org.get(`/recurring_shifts/${s.series}`);
    const moved = await s.org.patch(`/recurring_shifts/${s.series}`, { crew: 'C', effective_date: day(3) });
    const refused = s.notice('this change is refused');
    expect(moved).toAnswer(422, {
      status: 422,
      error: 'invalid_params',
      error_message: [refused.message],
      off_limits: [refused],
    });
    expect((await s.org.get(`/recurring_shifts/${s.series}`)).body).toEqual(before.body);
    expect(await worksDay8(s)).toBe(false);
  });

  it('refuse: a new recurring shift under the leave is refused the same way', async () => {
    const s = await scene('refuse');
    const ended = await s.org.del(`/recurring_shifts/${s.series}`, undefined, { query: { effective_date: day(0) } });
    expect(ended.status, ended.text).toBeLessThan(300);
    const placed = await s.org.post('/recurring_shifts', {
      user_id: s.ray,
      rotation_id: s.rotation,
      assignment_id: s.engine,
      crew: 'C',
      start_date: day(0),
    });
    expect(placed.status, placed.text).toBe(422);
    expect(placed.body.off_limits).toEqual([s.notice('this change is refused')]);
  });

  it('warn: the move is made and answers the limit as a warning', async () => {
    const s = await scene('warn');
    const moved = await s.org.patch(`/recurring_shifts/${s.series}`, { crew: 'C', effective_date: day(3) });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.warnings).toEqual([s.notice('allowed, with this warning')]);
    expect(await worksDay8(s)).toBe(true);
  });

  it("require_approval: the admin's move is the approval, made over the limit with the warning", async () => {
    const s = await scene('require_approval');
    const moved = await s.org.patch(`/recurring_shifts/${s.series}`, { crew: 'C', effective_date: day(3) });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.warnings).toEqual([s.notice('changed by an admin over the limit')]);
  });

  it('an occurrence moved under the leave is judged on its date (POST /recurring_shifts/{id}/exceptions)', async () => {
    const s = await scene('refuse');
    // a moved occurrence keeps its date (day 4): at most 0 off, so Ray alone goes past the limit
    const limitId = s.notice('').off_limit.id;
    expect((await s.org.patch(`/off_limits/${limitId}`, { max_off: 0 })).status).toBe(200);
    const moved = await s.org.post(`/recurring_shifts/${s.series}/exceptions`, {
      date: day(4),
      action: 'move',
      start: `${D5} 07:00:00`,
      end: `${day(6)} 07:00:00`,
    });
    const message =
      `The off limit One off allows at most 0 off on ${day(4)}; ` + 'already off: nobody; this change is refused.';
    expect(moved).toAnswer(422, {
      status: 422,
      error: 'invalid_params',
      error_message: [message],
      off_limits: [
        {
          off_limit: { id: limitId, name: 'One off', max_off: 0, action: 'refuse' },
          date: day(4),
          message,
          others_off: [],
        },
      ],
    });
  });

  it('an occurrence restored under the leave is judged the same way (DELETE …/exceptions/{date})', async () => {
    // both off on day 5 (approved before the limit was set); Ray's tour of day 5 removed, then restored
    const s = await scene('refuse', 'C');
    const removed = await s.org.post(`/recurring_shifts/${s.series}/exceptions`, { date: D5, action: 'remove' });
    expect(removed.status, removed.text).toBe(201);
    const restored = await s.org.del(`/recurring_shifts/${s.series}/exceptions/${D5}`);
    expect(restored.status, restored.text).toBe(422);
    expect(restored.body.off_limits).toEqual([s.notice('this change is refused')]);
  });

  it('judges only the days the move newly covers: a move that keeps the same days off answers nothing', async () => {
    // both already off on day 5 (approved before the limit was set)
    const s = await scene('refuse', 'C');
    // an end date changes nothing on day 5: the day was off before the change
    const moved = await s.org.patch(`/recurring_shifts/${s.series}`, { end_date: day(300), effective_date: day(3) });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.warnings).toBeUndefined();
  });
});
