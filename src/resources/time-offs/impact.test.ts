import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { startWithOrgs, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { postTimeOff } from './test-fixtures.js';

/**
 * GET /time_offs/{id}/impact (extension): what approving an entry would do to staffing, as the
 * engine judges it. Engine 1 needs 2 people, one of them a paramedic; crew A is Anna (PM), Ben and
 * Cara on a 24/48 from 2030-03-01 (Mar 4, 7, 10, 13, …). Cara is already off (approved) on Mar 10.
 */
let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let engine: number;
let pm: number;
let vacation: number;
let crew: { anna: number; ben: number; cara: number };
let admin: number;

const users = (id: number, name: string) => ({ id, name, href: `${server.url}/v1/users/${id}` });

async function request(userId: number, start: string, end: string, status = 0) {
  const response = await postTimeOff(org, { userId, adminId: admin, typeId: vacation, start, end, status });
  expect(response.status, response.text).toBe(201);
  return response.body.id as number;
}

const staffing = (scheduled: number, open: number, pmHave: number | null) => ({
  scheduled,
  needed: 2,
  open,
  qualifier_shortfalls: pmHave === null ? [] : [{ id: pm, shortcode: 'PM', needed: 1, have: pmHave }],
  short_from: open > 0 || pmHave !== null ? expect.any(String) : null,
  short_until: open > 0 || pmHave !== null ? expect.any(String) : null,
});

beforeAll(async () => {
  ({ server, org, other } = await startWithOrgs());
  admin = await org.createUser({ first_name: 'Dana', last_name: 'Chief' });
  crew = {
    anna: await org.createUser({ first_name: 'Anna', last_name: 'Medic' }),
    ben: await org.createUser({ first_name: 'Ben', last_name: 'Driver' }),
    cara: await org.createUser({ first_name: 'Cara', last_name: 'Relief' }),
  };
  expect((await org.post('/qualifiers', { name: 'Paramedic', shortcode: 'PM' })).status).toBe(201);
  pm = Number((await org.get('/qualifiers')).body.find((q: { name: string }) => q.name === 'Paramedic').id);
  expect((await org.post(`/users/${crew.anna}/qualifiers`, { id: pm })).status).toBe(201);
  const assignment = await org.post('/assignments', {
    name: 'Engine 1',
    start: '2030-03-01 07:00:00',
    end: '2030-03-02 07:00:00',
    positions_to_fill: 2,
    qualifiers_needed: [{ id: pm, minimum_staffing: 1 }],
  });
  expect(assignment.status, assignment.text).toBe(201);
  engine = assignment.body.id;
  const rotation = await org.post('/rotations', { name: 'Platoons', anchor_date: '2030-03-01', preset: '24/48' });
  for (const userId of Object.values(crew)) {
    const member = await org.post('/recurring_shifts', {
      user_id: userId,
      rotation_id: rotation.body.id,
      start_date: '2030-03-01',
      assignment_id: engine,
      crew: 'A',
    });
    expect(member.status, member.text).toBe(201);
  }
  vacation = (await org.post('/time_off_types', { label: 'Vacation' })).body.id;
  await request(crew.cara, '2030-03-10 07:00:00', '2030-03-11 07:00:00', 1);
});
afterAll(() => server.close());

describe('GET /time_offs/{id}/impact', () => {
  it('lists each occurrence the approval changes, before and after, with the seats it opens', async () => {
    const id = await request(crew.anna, '2030-03-07 07:00:00', '2030-03-11 07:00:00');
    const response = await org.get(`/time_offs/${id}/impact`);
    expect(response.status, response.text).toBe(200);
    const assignment = { id: engine, name: 'Engine 1', href: `${server.url}/v1/assignments/${engine}` };
    expect(response.body).toEqual({
      time_off_id: id,
      bank: null,
      status: 0,
      start: '2030-03-07 07:00:00',
      end: '2030-03-11 07:00:00',
      seats_opened: 1,
      new_vacancies: 2,
      assignments: [
        {
          assignment,
          date: '2030-03-07',
          start: '2030-03-07 07:00:00',
          end: '2030-03-08 07:00:00',
          before: staffing(3, 0, null),
          after: staffing(2, 0, 0),
          people: [users(crew.ben, 'Ben Driver'), users(crew.cara, 'Cara Relief')],
        },
        {
          assignment,
          date: '2030-03-10',
          start: '2030-03-10 07:00:00',
          end: '2030-03-11 07:00:00',
          before: staffing(2, 0, null),
          after: staffing(1, 1, 0),
          people: [users(crew.ben, 'Ben Driver')],
        },
      ],
    });
  });

  it('agrees with GET /vacancies once the entry is approved', async () => {
    const id = await request(crew.anna, '2030-03-13 07:00:00', '2030-03-14 07:00:00');
    const impact = (await org.get(`/time_offs/${id}/impact`)).body;
    const period = { start: '2030-03-13 00:00:00', end: '2030-03-14 00:00:00' };
    expect((await org.get('/vacancies', { query: period })).body).toEqual([]);
    expect((await org.post(`/time_offs/${id}/approve`, { admin_id: admin })).status).toBe(200);
    const vacancies = (await org.get('/vacancies', { query: period })).body;
    expect(
      vacancies.map((v: any) => ({ date: v.date, open: v.open, qualifier_shortfalls: v.qualifier_shortfalls })),
    ).toEqual(
      impact.assignments.map((a: any) => ({
        date: a.date,
        open: a.after.open,
        qualifier_shortfalls: a.after.qualifier_shortfalls,
      })),
    );
    // approved now: counting it as approved changes nothing
    expect((await org.get(`/time_offs/${id}/impact`)).body).toMatchObject({
      status: 1,
      seats_opened: 0,
      new_vacancies: 0,
      assignments: [],
    });
  });

  it('shows a change that leaves the post staffed (a spare on duty): no seat opened, no vacancy', async () => {
    const id = await request(crew.ben, '2030-03-16 07:00:00', '2030-03-17 07:00:00');
    const response = await org.get(`/time_offs/${id}/impact`);
    expect(response.status, response.text).toBe(200);
    expect(response.body.seats_opened).toBe(0);
    expect(response.body.new_vacancies).toBe(0);
    expect(response.body.assignments.map((a: any) => [a.date, a.before.scheduled, a.after.scheduled])).toEqual([
      ['2030-03-16', 3, 2],
    ]);
  });

  it('is empty for a request on days its user does not work', async () => {
    const id = await request(crew.ben, '2030-03-17 07:00:00', '2030-03-18 07:00:00');
    expect((await org.get(`/time_offs/${id}/impact`)).body).toMatchObject({
      seats_opened: 0,
      new_vacancies: 0,
      assignments: [],
    });
  });

  it('answers 404 for an unknown id and for another organization, and 401 without a token', async () => {
    const response = await org.get('/time_offs/999999/impact');
    expect(response).toBeNotFound('TimeOff');
    const id = await request(crew.ben, '2030-03-19 07:00:00', '2030-03-20 07:00:00');
    await expectNotFoundForOtherOrg(other, 'GET', `/time_offs/${id}/impact`);
    await expectAuthRequired(server, 'GET', `/v1/time_offs/${id}/impact`);
  });
});
