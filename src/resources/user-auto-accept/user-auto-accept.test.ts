import { beforeAll, describe, expect, it } from 'vitest';
import type { TestOrg } from '../../../test/helpers/server.js';
import { Temporal } from '../../core/time.js';
import { createAssignment } from '../rotations/test-fixtures.js';
import { listOf, logText, runnerSuite } from '../callbacks/test-fixtures.js';

const suite = runnerSuite();
const runner = () => suite.runner();

describe('auto-accept', () => {
  let org: TestOrg;
  let adminId: number;
  let stationId: number;
  let eager: number;
  let other: number;
  let listId: number;

  beforeAll(async () => {
    org = await suite.server.newOrg({ name: 'Station Eager' });
    adminId = await org.createUser({ first_name: 'Chief', last_name: 'Eager' });
    stationId = await createAssignment(org, {
      name: 'Engine 7',
      start: '2034-03-01 07:00:00',
      end: '2034-03-02 07:00:00',
    });
    eager = await org.createUser({ first_name: 'Eager', last_name: 'One' });
    other = await org.createUser({ first_name: 'Patient', last_name: 'Two' });
    listId = await listOf(org, 'Eager list', [eager, other]);
  });

  async function callbackOn(date: string, assignmentId: number | null = stationId): Promise<number> {
    const next = Temporal.PlainDate.from(date).add({ days: 1 }).toString();
    const response = await org.post('/callbacks', {
      list_id: listId,
      initiated_by: adminId,
      assignment_id: assignmentId,
      start: `${date} 07:00:00`,
      end: `${next} 07:00:00`,
      positions_to_fill: 1,
      deadline: '2036-01-01T00:00:00+00:00',
      // the same order every time (One before Two), whoever was contacted before
      ordering: 'seniority',
    });
    expect(response.status, response.text).toBe(201);
    return response.body.id;
  }
  const usersOf = async (id: number) =>
    (await org.get(`/callbacks/${id}/users`)).body as Array<Record<string, string | null>>;

  it('GET and PUT /users/{id}/callback_auto_accept: off by default, replaced whole, checked', async () => {
    expect((await org.get(`/users/${eager}/callback_auto_accept`)).body).toEqual({
      user_id: eager,
      enabled: false,
      max_hours: 0,
      period: 'week',
      assignment_ids: null,
      weekdays: null,
    });
    const bad = await org.put(`/users/${eager}/callback_auto_accept`, {
      enabled: true,
      max_hours: 30,
      period: 'week',
      assignment_ids: [stationId, 999999],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error_message).toEqual(['The assignment ids 999999 do not exist.']);
    expect(
      (await org.put(`/users/${eager}/callback_auto_accept`, { enabled: true, max_hours: 0, period: 'week' })).status,
    ).toBeGreaterThanOrEqual(400);
    expect((await org.get(`/users/${eager}/callback_auto_accept`)).body.enabled).toBe(false);

    const saved = await org.put(`/users/${eager}/callback_auto_accept`, {
      enabled: true,
      max_hours: 30,
      period: 'week',
      assignment_ids: [stationId],
      weekdays: [3, 1, 2],
    });
    expect(saved).toAnswer(200, {
      user_id: eager,
      enabled: true,
      max_hours: 30,
      period: 'week',
      assignment_ids: [stationId],
      weekdays: [1, 2, 3],
    });
    expect((await org.get(`/users/${eager}/callback_auto_accept`)).body).toEqual(saved.body);
  });

  it('accepts at once within the limits, offers normally beyond them, and starts over the next week', async () => {
    // the clock of each pass: after the callback's scheduled_to
    const clock = () => new Date().toISOString();
    const run = runner();

    // Monday, 24 of 30 hours: accepted at once, the shift placed, nobody contacted
    const monday = await callbackOn('2034-03-06');
    expect(await run.runOnce(clock())).toEqual({ contacted: 0 });
    expect((await org.get(`/callbacks/${monday}`)).body.status).toBe('filled');
    let users = await usersOf(monday);
    expect(users.map((u) => [u.id, u.status, u.auto_accepted, u.contact_method])).toEqual([
      [String(eager), 'accepted', '1', null],
      [String(other), 'pending', '0', null],
    ]);
    expect(users[0].response_time).not.toBeNull();
    expect(users[1].contact_time).toBeNull();
    const schedule = await org.get('/schedule', {
      query: { start: '2034-03-06 00:00:00', end: '2034-03-06 23:59:59' },
    });
    const day = schedule.body.days.find((d: { date: string }) => d.date === '2034-03-06');
    expect(
      day.assignments.flatMap((a: { shifts: Array<{ user: { id: number } }> }) => a.shifts.map((s) => s.user.id)),
    ).toContain(eager);

    // Tuesday of the same week: 24 more would make 48 of 30, so the offer goes out as usual
    const tuesday = await callbackOn('2034-03-07');
    expect(await run.runOnce(clock())).toEqual({ contacted: 1 });
    users = await usersOf(tuesday);
    expect(users.map((u) => [u.id, u.status, u.auto_accepted])).toEqual([
      [String(eager), 'pending', '0'],
      [String(other), 'pending', '0'],
    ]);
    expect(users[0].contact_time).not.toBeNull();
    expect(await logText(org)).toContain(
      `did not auto-accept callback #${tuesday} for user #${eager}: ` +
        "over the user's auto-accept weekly limit: 48 of 30 h; offering it instead.",
    );

    // not on the user's assignments: offered (the first free candidate is the eager one)
    const elsewhere = await callbackOn('2034-03-15', null);
    await run.runOnce(clock());
    expect((await usersOf(elsewhere))[0]).toMatchObject({ id: String(eager), status: 'pending', auto_accepted: '0' });
    expect(await logText(org)).toContain('not on an assignment the user auto-accepts');

    // the next Monday: a new week, within the limit again
    const nextMonday = await callbackOn('2034-03-13');
    await run.runOnce(clock());
    expect((await usersOf(nextMonday))[0]).toMatchObject({ id: String(eager), status: 'accepted', auto_accepted: '1' });
  });
});
