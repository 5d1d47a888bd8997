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
