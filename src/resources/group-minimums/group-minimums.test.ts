import { beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';
import { createAssignment, workTypeId } from '../rotations/test-fixtures.js';
import { createShift } from '../shifts/test-fixtures.js';

/*
 * Minimum staffing of a group of assignments (docs/contract-rules.md): "Station 1 needs 8 on duty,
 * 2 of them paramedics", beside each assignment's own minimum. Station 1 is Engine 1 (4 seats)
 * and Medic 1 (2 seats), both 07:00 to 07:00; on 2027-05-10 six people are on, one paramedic.
 */

const { server, org, other } = await useOrgs();
const DATE = '2027-05-10';
let groupId: number;
let engine: number;
let medic: number;
let paramedic: number;
let regular: number;
const crew: number[] = [];

async function shift(assignmentId: number, userId: number) {
  await createShift(org, assignmentId, userId, `${DATE} 07:00:00`, '2027-05-11 07:00:00', { work_type_id: regular });
}

const period = { start: `${DATE} 00:00:00`, end: `${DATE} 23:59:59` };

beforeAll(async () => {
  regular = await workTypeId(org);
  await org.post('/qualifiers', { name: 'Paramedic', shortcode: 'PM' });
  paramedic = (await org.get('/qualifiers')).body.find((q: { name: string }) => q.name === 'Paramedic').id;
  const times = { start: '2027-05-01 07:00:00', end: '2027-05-02 07:00:00' };
  engine = await createAssignment(org, { name: 'Engine 1', positions_to_fill: 4, ...times });
  medic = await createAssignment(org, { name: 'Medic 1', positions_to_fill: 2, ...times });
  groupId = Number((await org.post('/assignment_groups', { name: 'Station 1', color: '#aa0000' })).body.id);
  for (const id of [engine, medic])
    expect((await org.put(`/assignments/${id}/groups`, { ids: [groupId] })).status).toBe(200);
  for (let i = 0; i < 8; i += 1) crew.push(await org.createUser({ first_name: 'Crew', last_name: `Member${i}` }));
  for (const id of crew.slice(0, 4)) await shift(engine, id);
  for (const id of crew.slice(4, 6)) await shift(medic, id);
  await org.post(`/users/${crew[4]}/qualifiers`, { id: paramedic });
  await org.post(`/users/${crew[6]}/qualifiers`, { id: paramedic });
});

describe('PUT /group_minimums/{group_id}', () => {
  it('sets the group minimum and lists it', async () => {
    const response = await org.put(`/group_minimums/${groupId}`, {
      min_on_duty: 8,
      min_qualified: [{ qualifier_id: paramedic, count: 2 }],
    });
    const expected = {
      assignment_group_id: groupId,
      name: 'Station 1',
      min_on_duty: 8,
      min_qualified: [{ qualifier_id: paramedic, shortcode: 'PM', count: 2 }],
      assignment_ids: [engine, medic].sort((a, b) => a - b),
    };
    expect({ ...response.body, assignment_ids: response.body.assignment_ids.sort() }).toEqual(expected);
    expect(response.status).toBe(200);
    expect((await org.get('/group_minimums')).body).toHaveLength(1);
    expect(await other.get('/group_minimums')).toAnswer(200, []);
  });

  it('refuses an unknown qualifier, and another organization’s group', async () => {
    const bad = await org.put(`/group_minimums/${groupId}`, {
      min_on_duty: 3,
      min_qualified: [{ qualifier_id: 999999, count: 1 }],
    });
    expect(bad).toBeInvalid(['The selected qualifier id is invalid.']);
    expect(await other.put(`/group_minimums/${groupId}`, { min_on_duty: 1 })).toBeNotFound('AssignmentGroup');
    expect((await org.get('/group_minimums')).body[0].min_on_duty).toBe(8);
    await expectAuthRequired(server, 'GET', '/group_minimums');
  });
});

const shortfall = (scheduled: number, have: number) => ({
  scheduled,
  needed: 8,
  open: 8 - scheduled,
  qualifier_shortfalls: have < 2 ? [{ id: paramedic, shortcode: 'PM', needed: 2, have }] : [],
  short_from: `${DATE} 07:00:00`,
  short_until: '2027-05-11 07:00:00',
});

describe('a station short of its group minimum', () => {
  it('GET /vacancies has the group entry beside the assignments’ own (which are fully staffed)', async () => {
    const response = await org.get('/vacancies', { query: period });
    const { open, needed, scheduled, qualifier_shortfalls, short_from, short_until } = shortfall(6, 1);
    expect(response).toAnswer(200, [
      {
        group: { id: groupId, name: 'Station 1', color: '#aa0000' },
        date: DATE,
        start: `${DATE} 07:00:00`,
        end: '2027-05-11 07:00:00',
        needed,
        scheduled,
        open,
        qualifier_shortfalls,
        short_from,
        short_until,
        people: expect.arrayContaining(crew.slice(0, 6).map((id) => expect.objectContaining({ id }))),
      },
    ]);
    expect(response.body[0].people).toHaveLength(6);
  });

  it('GET /schedule shows the group’s staffing on the day', async () => {
    const response = await org.get('/schedule', { query: period });
    expect(response.status, response.text).toBe(200);
    expect(response.body.days[0].group_staffing).toEqual([
      {
        group: { id: groupId, name: 'Station 1', color: '#aa0000' },
        start: `${DATE} 07:00:00`,
        end: '2027-05-11 07:00:00',
        staffing: shortfall(6, 1),
      },
    ]);
  });

  it('two more on duty, one a paramedic: the group is no longer short', async () => {
    await shift(engine, crew[6]!);
    await shift(medic, crew[7]!);
    expect(await org.get('/vacancies', { query: period })).toAnswer(200, []);
    const schedule = await org.get('/schedule', { query: period });
    expect(schedule.body.days[0].group_staffing[0].staffing).toEqual({
      scheduled: 8,
      needed: 8,
      open: 0,
      qualifier_shortfalls: [],
      short_from: null,
      short_until: null,
    });
  });

  it('a change of the minimum is seen at once (the engine cache watches it)', async () => {
    expect((await org.put(`/group_minimums/${groupId}`, { min_on_duty: 9 })).status).toBe(200);
    const response = await org.get('/vacancies', { query: period });
    expect(response.body.map((v: { group?: unknown; open: number }) => [v.group !== undefined, v.open])).toEqual([
      [true, 1],
    ]);
    expect(await org.del(`/group_minimums/${groupId}`)).toSucceed(200, 'Group minimum removed successfully.');
    expect(await org.get('/vacancies', { query: period })).toAnswer(200, []);
    const schedule = await org.get('/schedule', { query: period });
    expect(schedule.body.days[0].group_staffing).toBeUndefined();
    expect(await org.del(`/group_minimums/${groupId}`)).toBeNotFound('GroupMinimum');
  });
});
