import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();
const userId = await org.createUser({ first_name: 'John', last_name: 'Doe' });
const trainingId: number = (await org.post('/work_types', { label: 'Training' })).body.id;
const subtypeId: number = (await org.post('/work_subtypes', { work_type_id: trainingId, label: 'EMS' })).body.id;

const userRef = () => ({ id: userId, name: 'John Doe', href: `${server.url}/v1/users/${userId}` });

/** One hour of Training for John Doe on 2015-03-16. */
const addTraining = () =>
  org.post('/misc_hours', { user_id: userId, date: '2015-03-16', length: 1, work_type_id: trainingId });

describe('POST /misc_hours', () => {
  it('adds hours of a length on a date', async () => {
    const response = await org.post('/misc_hours', {
      user_id: userId,
      date: '2015-03-16',
      length: 4.5,
      work_type_id: trainingId,
      notes: 'CPR',
    });
    expect(response).toAnswer(201, {
      id: expect.any(Number),
      href: `${server.url}/v1/misc/${response.body.id}`,
      date: '2015-03-16',
      length: 4.5,
      user: userRef(),
      work_type: 'Training',
      work_type_id: trainingId,
      work_subtype_id: null,
      start: null,
      end: null,
      notes: 'CPR',
    });
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toMatch(
      /added 4\.5 misc hours \(Training\) for John Doe on 2015-03-16\.$/,
    );
  });

  it('takes the length from start and end, in real hours across DST', async () => {
    const response = await org.post('/misc_hours', {
      user_id: userId,
      date: '2026-03-07',
      start: '2026-03-07 20:00:00',
      end: '2026-03-08 08:00:00',
      work_type_id: trainingId,
      work_subtype_id: subtypeId,
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      length: 11,
      start: '2026-03-07 20:00:00',
      end: '2026-03-08 08:00:00',
      work_subtype_id: subtypeId,
    });
  });

  it('validates the length, the period and every id', async () => {
    const base = { user_id: userId, date: '2015-03-16', work_type_id: trainingId };
    const cases: Array<[Record<string, unknown>, string]> = [
      [base, 'The length field is required when start and end are not present.'],
      [{ ...base, start: '2015-03-16 10:00:00' }, 'The start and end fields must be given together.'],
      [{ ...base, start: '2015-03-16 10:00:00', end: '2015-03-16 09:00:00' }, 'The end must be after the start.'],
      [{ ...base, length: 1, user_id: 999999 }, 'The selected user id is invalid.'],
      [{ ...base, length: 1, work_type_id: 999999 }, 'The selected work type id is invalid.'],
      [{ ...base, length: 1, work_subtype_id: 999999 }, 'The selected work subtype id is invalid.'],
    ];
    for (const [body, message] of cases) {
      const response = await org.post('/misc_hours', body);
      expect(response.status, message).toBe(422);
      expect(response).toBeInvalid([message]);
    }
  });

  it('requires a token', () =>
    expectAuthRequired(server, 'POST', '/misc_hours', { user_id: 1, date: '2015-03-16', length: 1, work_type_id: 1 }));
});

describe('GET /misc_hours', () => {
  it('lists the hours dated in the period, optionally of one user', async () => {
    const target = await server.newOrg();
    const jane = await target.createUser({ first_name: 'Jane', last_name: 'Roe' });
    const joe = await target.createUser({ first_name: 'Joe', last_name: 'Poe' });
    const type = (await target.post('/work_types', { label: 'Meeting' })).body.id;
    const add = async (user: number, date: string) =>
      (await target.post('/misc_hours', { user_id: user, date, length: 2, work_type_id: type })).body.id as number;
    const first = await add(jane, '2015-03-15');
    const second = await add(joe, '2015-03-16');
    await add(jane, '2015-03-20');
    const response = await target.get('/misc_hours', { query: { start: '2015-03-15', end: '2015-03-16' } });
    expect(response.status).toBe(200);
    expect(response.body.map((m: { id: number; user: { name: string } }) => [m.id, m.user.name])).toEqual([
      [first, 'Jane Roe'],
      [second, 'Joe Poe'],
    ]);
    const ofJoe = await target.get('/misc_hours', { query: { start: '2015-03-01', end: '2015-03-31', user_id: joe } });
    expect(ofJoe.body.map((m: { id: number }) => m.id)).toEqual([second]);
    expect((await other.get('/misc_hours', { query: { start: '2015-03-01', end: '2015-03-31' } })).body).toEqual([]);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/misc_hours'));
});

describe('GET /misc/{id}', () => {
  it('answers at the href the schedule gives', async () => {
    const created = await addTraining();
    const response = await org.get(`/misc/${created.body.id}`);
    expect(response).toAnswer(200, created.body);
    expect((await org.get(`/misc_hours/${created.body.id}`)).body).toEqual(created.body);
    await expectNotFoundForOtherOrg(other, 'GET', `/misc/${created.body.id}`);
  });
});

describe('DELETE /misc_hours/{id}', () => {
  it('removes the entry', async () => {
    const created = await addTraining();
    const response = await org.del(`/misc_hours/${created.body.id}`);
    expect(response).toSucceed(200, 'Misc hours removed successfully.', {
      id: created.body.id,
    });
    const again = await org.get(`/misc_hours/${created.body.id}`);
    expect(again).toBeNotFound('MiscHour');
  });

  it('is a 404 for another organization', async () => {
    const created = await addTraining();
    await expectNotFoundForOtherOrg(other, 'DELETE', `/misc_hours/${created.body.id}`);
  });

  it('requires a token', () => expectAuthRequired(server, 'DELETE', '/misc_hours/1'));
});
