import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { createAssignment } from '../rotations/test-fixtures.js';

/**
 * The overtime equalization report of a list (docs/workflows.md, "Overtime equalization"), on a
 * small worked example: a 12-hour callback on Engine 1 (Amy accepts, Bob declines), a 4-hour one
 * off any assignment (Bob takes 2 hours of it, Cy does not answer) and one outside the period.
 */
let server: TestServer;
let org: TestOrg;
let listId: number;
let amy: number;
let bob: number;
let cy: number;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ name: 'Station Equal' });
  const admin = await org.createUser({ first_name: 'Dana', last_name: 'Chief' });
  const engine = await createAssignment(org, {
    name: 'Engine 1',
    start: '2032-07-01 07:00:00',
    end: '2032-07-01 19:00:00',
  });
  [amy, bob, cy] = [
    await org.createUser({ first_name: 'Amy', last_name: 'Eq' }),
    await org.createUser({ first_name: 'Bob', last_name: 'Eq' }),
    await org.createUser({ first_name: 'Cy', last_name: 'Eq' }),
  ];
  listId = (await org.post('/lists', { name: 'Overtime' })).body.id;
  for (const id of [amy, bob, cy]) expect((await org.put(`/users/${id}/titles`, { ids: [listId] })).status).toBe(200);
  const callback = async (start: string, end: string, extra: Record<string, unknown> = {}) => {
    const created = await org.post('/callbacks', {
      list_id: listId,
      initiated_by: admin,
      start,
      end,
      positions_to_fill: 2,
      deadline: '2035-01-01T00:00:00+00:00',
      ...extra,
    });
    expect(created.status, created.text).toBe(201);
    return created.body.id as number;
  };
  const answer = async (id: number, userId: number, status: string, extra: Record<string, unknown> = {}) => {
    const response = await org.post(`/callbacks/${id}/users`, { user_id: userId, status, ...extra });
    expect(response.status, response.text).toBe(200);
  };
  const onEngine = await callback('2032-07-01 07:00:00', '2032-07-01 19:00:00', { assignment_id: engine });
  await answer(onEngine, bob, 'denied');
  await answer(onEngine, amy, 'accepted');
  const unplaced = await callback('2032-07-05 08:00:00', '2032-07-05 12:00:00');
  await answer(unplaced, bob, 'accepted', { start_time: '2032-07-05 08:00:00', end_time: '2032-07-05 10:00:00' });
  await answer(unplaced, cy, 'no answer');
  const later = await callback('2032-08-01 08:00:00', '2032-08-01 12:00:00');
  await answer(later, amy, 'accepted');
});
afterAll(() => server.close());

const PERIOD = { start: '2032-07-01 00:00:00', end: '2032-08-01 00:00:00' };

describe('GET /lists/{id}/equalization', () => {
  it('per person: hours offered, accepted, refused, forced and worked, with the mean and spread', async () => {
    const response = await org.get(`/lists/${listId}/equalization`, { query: PERIOD });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      list: { id: listId, name: 'Overtime' },
      ...PERIOD,
      people: [
        {
          user: { id: amy, name: 'Amy Eq' },
          member: true,
          offered: 12,
          accepted: 12,
          refused: 0,
          forced: 0,
          worked: 12,
        },
        {
          user: { id: bob, name: 'Bob Eq' },
          member: true,
          offered: 16,
          accepted: 2,
          refused: 12,
          forced: 0,
          worked: 0,
        },
        { user: { id: cy, name: 'Cy Eq' }, member: true, offered: 4, accepted: 0, refused: 4, forced: 0, worked: 0 },
      ],
      mean: { offered: 10.6667, accepted: 4.6667, refused: 5.3333, forced: 0, worked: 4 },
      standard_deviation: { offered: 4.9889, accepted: 5.2493, refused: 4.9889, forced: 0, worked: 5.6569 },
    });
  });

  it('as CSV with Accept: text/csv or format=csv', async () => {
    const expected = [
      'user_id,name,member,offered_hours,accepted_hours,refused_hours,forced_hours,worked_hours',
      `${amy},Amy Eq,yes,12,12,0,0,12`,
      `${bob},Bob Eq,yes,16,2,12,0,0`,
      `${cy},Cy Eq,yes,4,0,4,0,0`,
      ',mean,,10.6667,4.6667,5.3333,0,4',
      ',standard deviation,,4.9889,5.2493,4.9889,0,5.6569',
      '',
    ].join('\r\n');
    const byHeader = await org.get(`/lists/${listId}/equalization`, { query: PERIOD, headers: { accept: 'text/csv' } });
    expect(byHeader.status, byHeader.text).toBe(200);
    expect(byHeader.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(byHeader.text).toBe(expected);
    const byQuery = await org.get(`/lists/${listId}/equalization`, { query: { ...PERIOD, format: 'csv' } });
    expect(byQuery.text).toBe(expected);
  });

  it('a period outside the callbacks counts nothing; a bad period and an unknown list are refused', async () => {
    const empty = await org.get(`/lists/${listId}/equalization`, {
      query: { start: '2033-01-01 00:00:00', end: '2033-02-01 00:00:00' },
    });
    expect(empty.body.people.map((p: { offered: number }) => p.offered)).toEqual([0, 0, 0]);
    expect(empty.body.standard_deviation.offered).toBe(0);
    const backwards = await org.get(`/lists/${listId}/equalization`, {
      query: { start: '2032-08-01 00:00:00', end: '2032-07-01 00:00:00' },
    });
    expect(backwards.status).toBe(422);
    expect((await org.get('/lists/999999/equalization', { query: PERIOD })).status).toBe(404);
  });
});

describe('forced hours', () => {
  it("counts the forced hires of the list's members in the period, not other people's or other times", async () => {
    const station = await server.newOrg({ name: 'Station Forced Eq' });
    const chief = await station.createUser({ first_name: 'Chief', last_name: 'Fq' });
    const engine = await createAssignment(station, {
      name: 'Engine 4',
      start: '2032-07-01 07:00:00',
      end: '2032-07-02 07:00:00',
    });
    const groupId = (await station.post('/groups', { name: 'Station 4' })).body.id;
    const member = async (first: string, hired: string) => {
      const id = await station.createUser({ first_name: first, last_name: 'Fq', date_of_hire: hired });
      expect((await station.put(`/users/${id}/groups`, { ids: [groupId] })).status).toBe(200);
      return id;
    };
    const ann = await member('Ann', '2001-01-01');
    const ben = await member('Ben', '2002-01-01');
    const outsider = await member('Zed', '2003-01-01');
    const saved = await station.put(`/groups/${groupId}/forced_list`, {
      enabled: false,
      start_within_hours: 12,
      time_off_buffer_hours: 0,
      long_tour_hours: 24,
      long_tour_buffer_hours: 0,
      initiated_by: chief,
      assignment_ids: [engine],
    });
    expect(saved.status, saved.text).toBe(200);
    const list = (await station.post('/lists', { name: 'Forced Eq' })).body.id;
    for (const id of [ann, ben]) expect((await station.put(`/users/${id}/titles`, { ids: [list] })).status).toBe(200);
    const force = async (date: string, start: string, end: string) => {
      const hire = await station.post('/forced_hires', { assignment_id: engine, start, end, ordered_by: chief });
      expect(hire.status, hire.text).toBe(201);
      expect(hire.body.status, date).toBe('forced');
      return hire.body.user_id as number;
    };
    const forced = [
      await force('1', '2032-07-01 07:00:00', '2032-07-01 19:00:00'),
      await force('2', '2032-07-03 07:00:00', '2032-07-03 15:00:00'),
      await force('3', '2032-07-05 07:00:00', '2032-07-05 17:00:00'),
      await force('4', '2032-08-07 07:00:00', '2032-08-07 19:00:00'),
    ];
    const report = await station.get(`/lists/${list}/equalization`, { query: PERIOD });
    expect(report.status, report.text).toBe(200);
    const expected = new Map<number, number>();
    const spans = [12, 8, 10];
    for (const [i, userId] of forced.slice(0, 3).entries())
      expected.set(userId, (expected.get(userId) ?? 0) + spans[i]);
    expect((expected.get(ann) ?? 0) + (expected.get(ben) ?? 0)).toBeGreaterThan(0);
    const rows = report.body.people as { user: { id: number }; forced: number }[];
    for (const id of [ann, ben])
      expect(rows.find((r) => r.user.id === id)?.forced, `user ${id}`).toBe(expected.get(id) ?? 0);
    // the outsider is in the group but not on the list: their forced hours are not the list's
    expect(rows.some((r) => r.user.id === outsider)).toBe(false);
    expect(report.body.mean.forced).toBe(((expected.get(ann) ?? 0) + (expected.get(ben) ?? 0)) / 2);
  });
});
