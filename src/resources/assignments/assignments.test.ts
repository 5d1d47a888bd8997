import { beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs, type TestOrg } from '../../../test/helpers/server.js';
import { formatDate, todayIn } from '../../core/time.js';
import { finalizedDates, findAssignmentOrThrow, findAssignmentsByIds, listAssignmentsForRange } from './repository.js';

const { server, org, other } = await useOrgs();
const adminId = await org.createUser({ first_name: 'John', last_name: 'Smith' });

const LOCATION = {
  address: '199 Northwest Hillcrest Drive',
  city: 'Grants Pass',
  state: 'OR',
  country: 'United States',
  zip: '97526',
  latitude: '42.45771410',
  longitude: '-123.32473050',
};

const stationBody = {
  name: 'Station 1',
  start: '2012-12-25 08:00:00',
  end: '2012-12-26 08:00:00',
  positions_to_fill: 2,
};

async function createAssignment(body: Record<string, unknown> = {}): Promise<number> {
  const response = await org.post('/assignments', { ...stationBody, ...body });
  if (response.status !== 201) throw new Error(response.text);
  return response.body.id as number;
}

async function qualifier(target: TestOrg, name: string, shortcode: string): Promise<number> {
  const row = await server.app.db
    .insertInto('qualifier')
    .values({
      organization_id: target.orgId,
      name,
      shortcode,
      color: '#d81b60',
      text_color: '#FFFFFF',
      title_id: null,
      partner_credential_id: null,
      created_by: null,
      created_at: new Date().toISOString(),
      modified_by: null,
      modified_at: null,
      deleted_by: null,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const defaults = {
  is_work_shift: true,
  self_scheduling: false,
  self_scheduling_requires_approval: false,
  service_eligible: false,
  hide_open_slots: false,
  color: '#F5F4F2',
  location: null,
  rrule: 'FREQ=DAILY',
  until: null,
  notes: null,
  qualifiers_needed: [],
};

/** Station 1 (stationBody) as the API answers it, every default included. */
const station1 = {
  name: 'Station 1',
  date: '2012-12-25 00:00:00',
  start: '2012-12-25 08:00:00',
  end: '2012-12-26 08:00:00',
  positions_to_fill: 2,
  ...defaults,
};

describe('POST /assignments', () => {
  it('creates an assignment with every default and answers 201 with it', async () => {
    const response = await org.post('/assignments', stationBody);
    expect(response).toSucceed(201, 'Assignment created successfully.', {
      id: expect.any(Number),
      position: expect.any(Number),
      ...station1,
    });
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toMatch(/created assignment Station 1/);
  });

  it('stores every documented field, the location and the extension fields', async () => {
    const captains = await qualifier(org, 'Captains', 'CPT');
    // sent as they are stored and answered
    const settings = {
      is_work_shift: false,
      self_scheduling: true,
      self_scheduling_requires_approval: true,
      service_eligible: true,
      hide_open_slots: true,
      color: '#CCCCCC',
      location: LOCATION,
      rrule: 'FREQ=WEEKLY;BYDAY=WE',
      until: '2030-01-01',
      notes: 'Bring gear',
    };
    const response = await org.post('/assignments', {
      name: 'Station 2',
      start: '2014-01-22 08:00',
      end: '2014-01-23T08:00:00',
      positions_to_fill: 4,
      position: 3,
      ...settings,
      qualifiers_needed: [{ id: captains, minimum_staffing: 1 }],
      admin_id: adminId,
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      position: 3,
      date: '2014-01-22 00:00:00',
      start: '2014-01-22 08:00:00',
      end: '2014-01-23 08:00:00',
      ...settings,
      qualifiers_needed: [
        {
          id: captains,
          name: 'Captains',
          shortcode: 'CPT',
          color: '#d81b60',
          text_color: '#FFFFFF',
          minimum_staffing: 1,
        },
      ],
    });
    const admins = await org.get(`/assignments/${response.body.id}/admins`);
    expect(admins.body).toEqual([
      { id: String(adminId), name: 'John Smith', href: `${server.url}/v1/users/${adminId}` },
    ]);
  });

  it('requires name, start, end and positions_to_fill', async () => {
    const response = await org.post('/assignments', {});
    expect(response).toBeInvalid([
      'The name field is required.',
      'The start field is required.',
      'The end field is required.',
      'The positions to fill field is required.',
    ]);
  });

  it('rejects an end not after the start', async () => {
    const response = await org.post('/assignments', { ...stationBody, end: stationBody.start });
    expect(response).toBeInvalid(['The end must be after the start.']);
  });

  it('rejects a bad rule, an unknown qualifier and an unknown admin', async () => {
    const rule = await org.post('/assignments', { ...stationBody, rrule: 'every day' });
    expect(rule).toBeInvalid(['The rrule is not a valid RFC 5545 recurrence rule.']);
    const hourly = await org.post('/assignments', { ...stationBody, rrule: 'FREQ=HOURLY' });
    expect(hourly.body.error_message).toEqual(['The rrule must have a FREQ of DAILY, WEEKLY, MONTHLY or YEARLY.']);
    const foreignQualifier = await qualifier(other, 'Other', 'OTH');
    const needed = await org.post('/assignments', {
      ...stationBody,
      qualifiers_needed: [{ id: foreignQualifier, minimum_staffing: 1 }],
    });
    expect(needed).toBeInvalid(['The selected qualifier id is invalid.']);
    const admin = await org.post('/assignments', { ...stationBody, admin_id: 999999 });
    expect(admin).toBeInvalid(['The selected admin id is invalid.']);
  });

  it('rejects a malformed datetime and color', async () => {
    const response = await org.post('/assignments', { ...stationBody, start: 'yesterday', color: 'red' });
    expect(response.status).toBe(422);
    expect(response.body.error).toBe('invalid_params');
  });

  it('requires a token', () => expectAuthRequired(server, 'POST', '/assignments', stationBody));
});

describe('GET /assignments', () => {
  it('lists current assignments in position order with the date as a date; archived ones are left out', async () => {
    const target = await server.newOrg();
    const today = formatDate(todayIn(target.timezone));
    const make = async (body: Record<string, unknown>) => {
      const created = await target.post('/assignments', { ...stationBody, ...body });
      expect(created.status, created.text).toBe(201);
      return created.body.id as number;
    };
    const second = await make({ name: 'Station 2', position: 2, location: LOCATION });
    const first = await make({ name: 'Station 1', position: 1 });
    await make({ name: 'Ended', position: 3, until: '2013-01-01' });
    await make({ name: 'One-off past', position: 4, rrule: null });
    const future = await make({
      name: 'One-off future',
      position: 5,
      rrule: null,
      start: `${today} 23:59:00`,
      end: '2099-01-01 08:00:00',
    });
    const untilToday = await make({ name: 'Until today', position: 6, until: today });
    const deleted = await make({ name: 'Deleted', position: 7 });
    await target.del(`/assignments/${deleted}`);
    const response = await target.get('/assignments');
    expect(response.status).toBe(200);
    const common = { start: '2012-12-25 08:00:00', end: '2012-12-26 08:00:00', positions_to_fill: 2, ...defaults };
    expect(response.body).toEqual([
      { id: first, position: 1, name: 'Station 1', date: '2012-12-25', ...common },
      { id: second, position: 2, name: 'Station 2', date: '2012-12-25', ...common, location: LOCATION },
      {
        id: future,
        position: 5,
        name: 'One-off future',
        date: today,
        ...common,
        start: `${today} 23:59:00`,
        end: '2099-01-01 08:00:00',
        rrule: null,
      },
      { id: untilToday, position: 6, name: 'Until today', date: '2012-12-25', ...common, until: today },
    ]);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/assignments'));
});

describe('GET /assignments/{id}', () => {
  it('shows one assignment with its date as a datetime', async () => {
    const id = await createAssignment({ location: LOCATION, position: 1 });
    const response = await org.get(`/assignments/${id}`);
    expect(response).toAnswer(200, {
      id,
      position: 1,
      ...station1,
      location: LOCATION,
    });
  });

  it('is a 404 for a missing or foreign assignment', async () => {
    const response = await org.get('/assignments/999999');
    expect(response).toBeNotFound('Assignment');
    await expectNotFoundForOtherOrg(other, 'GET', `/assignments/${await createAssignment()}`);
  });

  it('requires a token', () => expectAuthRequired(server, 'GET', '/assignments/1'));
});

describe('PATCH /assignments/{id}', () => {
  it('changes any subset and answers with the assignment', async () => {
    const id = await createAssignment({ position: 9 });
    const response = await org.patch(`/assignments/${id}`, {
      name: 'Engine 9',
      color: '#123456',
      hide_open_slots: true,
      start: '2012-12-26 07:00:00',
    });
    expect(response).toSucceed(200, 'Assignment updated successfully.', {
      id,
      position: 9,
      name: 'Engine 9',
      date: '2012-12-26 00:00:00',
      start: '2012-12-26 07:00:00',
      end: '2012-12-26 08:00:00',
      positions_to_fill: 2,
      ...defaults,
      color: '#123456',
      hide_open_slots: true,
    });
  });

  it('stops the recurrence, sets the location and replaces the qualifier minimums', async () => {
    const id = await createAssignment();
    const firefighters = await qualifier(org, 'Firefighters', 'FF-01');
    const response = await org.patch(`/assignments/${id}`, {
      rrule: null,
      until: '2013-01-31',
      location: { city: 'Grants Pass' },
      qualifiers_needed: [{ id: firefighters, minimum_staffing: 2 }],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      rrule: null,
      until: '2013-01-31',
      location: {
        address: null,
        city: 'Grants Pass',
        state: null,
        country: null,
        zip: null,
        latitude: null,
        longitude: null,
      },
      qualifiers_needed: [
        {
          id: firefighters,
          name: 'Firefighters',
          shortcode: 'FF-01',
          color: '#d81b60',
          text_color: '#FFFFFF',
          minimum_staffing: 2,
        },
      ],
    });
    const cleared = await org.patch(`/assignments/${id}`, { location: null, qualifiers_needed: [] });
    expect(cleared.body).toMatchObject({ location: null, qualifiers_needed: [] });
  });

  it('checks the end against the stored start', async () => {
    const id = await createAssignment();
    const response = await org.patch(`/assignments/${id}`, { end: '2012-12-25 07:00:00' });
    expect(response).toBeInvalid(['The end must be after the start.']);
  });

  it('is a 404 for a missing or foreign assignment', async () => {
    const response = await org.patch('/assignments/999999', { name: 'X' });
    expect(response).toBeNotFound('Assignment');
    await expectNotFoundForOtherOrg(other, 'PATCH', `/assignments/${await createAssignment()}`, { name: 'X' });
  });

  it('requires a token', () => expectAuthRequired(server, 'PATCH', '/assignments/1', { name: 'X' }));
});

describe('DELETE /assignments/{id}', () => {
  it('soft-deletes: the assignment is gone from reads and the change is logged', async () => {
    const id = await createAssignment({ name: 'Doomed' });
    const response = await org.del(`/assignments/${id}`);
    expect(response).toSucceed(200, 'Assignment deleted successfully.', {
      id,
    });
    expect((await org.get(`/assignments/${id}`)).status).toBe(404);
    expect((await org.get('/assignments')).body.map((a: { id: number }) => a.id)).not.toContain(id);
    expect((await org.del(`/assignments/${id}`)).status).toBe(404);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toMatch(/deleted assignment Doomed\.$/);
  });

  it('is a 404 for another organization', async () =>
    expectNotFoundForOtherOrg(other, 'DELETE', `/assignments/${await createAssignment()}`));

  it('requires a token', () => expectAuthRequired(server, 'DELETE', '/assignments/1'));
});

describe('assignment group labels', () => {
  let assignmentId: number;
  let red: string;
  let blue: string;

  beforeAll(async () => {
    assignmentId = await createAssignment();
    red = (await org.post('/assignment_groups', { name: '7367', color: '#1700e6' })).body.id;
    blue = (await org.post('/assignment_groups', { name: 'Blue', color: '#0000ff' })).body.id;
  });

  it('POST /assignment_groups adds a label to the catalog with a string id', async () => {
    const response = await org.post('/assignment_groups', { name: 'Green', color: '#00ff00' });
    expect(response).toAnswer(201, { id: expect.stringMatching(/^\d+$/), name: 'Green', color: '#00ff00' });
    const list = await org.get('/assignment_groups');
    expect(list.body).toEqual([
      { id: red, name: '7367', color: '#1700e6' },
      { id: blue, name: 'Blue', color: '#0000ff' },
      { id: response.body.id, name: 'Green', color: '#00ff00' },
    ]);
  });

  it('GET /assignments/{id}/groups is empty at first', async () => {
    const response = await org.get(`/assignments/${assignmentId}/groups`);
    expect(response).toAnswer(200, []);
  });

  it('PUT /assignments/{id}/groups replaces the labels and answers with them', async () => {
    const response = await org.put(`/assignments/${assignmentId}/groups`, { ids: [Number(red), Number(blue)] });
    expect(response).toAnswer(200, [
      { id: red, name: '7367', color: '#1700e6' },
      { id: blue, name: 'Blue', color: '#0000ff' },
    ]);
    expect((await org.get(`/assignments/${assignmentId}/groups`)).body).toEqual(response.body);
    const bare = await org.put(`/assignments/${assignmentId}/groups`, [Number(blue)]);
    expect(bare.body).toEqual([{ id: blue, name: 'Blue', color: '#0000ff' }]);
    const refs = await org.put(`/assignments/${assignmentId}/groups`, { groups: [{ id: red }] });
    expect(refs.body).toEqual([{ id: red, name: '7367', color: '#1700e6' }]);
    const none = await org.put(`/assignments/${assignmentId}/groups`, {});
    expect(none).toBeInvalid(['The ids field is required.']);
    await org.put(`/assignments/${assignmentId}/groups`, { ids: [Number(red), Number(blue)] });
  });

  it('PUT /assignments/{id}/groups rejects an unknown label', async () => {
    const response = await org.put(`/assignments/${assignmentId}/groups`, { ids: [999999] });
    expect(response).toBeInvalid(['The selected group id is invalid.']);
  });

  it('DELETE /assignments/{id}/groups/{group_id} removes one label; a label not on it is a 404', async () => {
    const response = await org.del(`/assignments/${assignmentId}/groups/${red}`);
    expect(response).toSucceed(200, 'Group label removed successfully.');
    expect((await org.get(`/assignments/${assignmentId}/groups`)).body).toEqual([
      { id: blue, name: 'Blue', color: '#0000ff' },
    ]);
    const again = await org.del(`/assignments/${assignmentId}/groups/${red}`);
    expect(again).toBeNotFound('AssignmentGroup');
  });

  it('DELETE /assignments/{id}/groups removes every label', async () => {
    const response = await org.del(`/assignments/${assignmentId}/groups`);
    expect(response).toSucceed(200, 'Group labels removed successfully.');
    expect((await org.get(`/assignments/${assignmentId}/groups`)).body).toEqual([]);
  });

  it('DELETE /assignment_groups/{id} takes the label off every assignment', async () => {
    await org.put(`/assignments/${assignmentId}/groups`, { ids: [Number(blue)] });
    const response = await org.del(`/assignment_groups/${blue}`);
    expect(response.status).toBe(200);
    expect((await org.get(`/assignments/${assignmentId}/groups`)).body).toEqual([]);
  });

  it('is a 404 for another organization', async () => {
    await expectNotFoundForOtherOrg(other, 'GET', `/assignments/${assignmentId}/groups`);
    await expectNotFoundForOtherOrg(other, 'PUT', `/assignments/${assignmentId}/groups`, { ids: [] });
    await expectNotFoundForOtherOrg(other, 'DELETE', `/assignments/${assignmentId}/groups`);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', `/assignments/${assignmentId}/groups`);
    await expectAuthRequired(server, 'PUT', `/assignments/${assignmentId}/groups`, { ids: [] });
    await expectAuthRequired(server, 'DELETE', `/assignments/${assignmentId}/groups`);
    await expectAuthRequired(server, 'DELETE', `/assignments/${assignmentId}/groups/1`);
    await expectAuthRequired(server, 'POST', '/assignment_groups', { name: 'A', color: '#000000' });
  });
});

describe('assignment admins', () => {
  it('GET /assignments/{id}/admins lists the creator with a string id', async () => {
    const id = await createAssignment({ admin_id: adminId });
    const response = await org.get(`/assignments/${id}/admins`);
    expect(response).toAnswer(200, [
      { id: String(adminId), name: 'John Smith', href: `${server.url}/v1/users/${adminId}` },
    ]);
  });

  it('PUT /assignments/{id}/admins replaces them and answers with the list', async () => {
    const id = await createAssignment({ admin_id: adminId });
    const chief = await org.createUser({ first_name: 'Dana', last_name: 'Chief' });
    const response = await org.put(`/assignments/${id}/admins`, { ids: [chief] });
    expect(response).toAnswer(200, [
      { id: String(chief), name: 'Dana Chief', href: `${server.url}/v1/users/${chief}` },
    ]);
    const single = await org.put(`/assignments/${id}/admins`, { admin_id: adminId });
    expect(single.body).toEqual([
      { id: String(adminId), name: 'John Smith', href: `${server.url}/v1/users/${adminId}` },
    ]);
    const bare = await org.put(`/assignments/${id}/admins`, [chief]);
    expect(bare.body).toEqual([{ id: String(chief), name: 'Dana Chief', href: `${server.url}/v1/users/${chief}` }]);
  });

  it('PUT /assignments/{id}/admins rejects an unknown user', async () => {
    const id = await createAssignment();
    const response = await org.put(`/assignments/${id}/admins`, { ids: [999999] });
    expect(response).toBeInvalid(['The selected admin id is invalid.']);
  });

  it('is a 404 for another organization', async () => {
    const id = await createAssignment();
    await expectNotFoundForOtherOrg(other, 'GET', `/assignments/${id}/admins`);
    await expectNotFoundForOtherOrg(other, 'PUT', `/assignments/${id}/admins`, { ids: [] });
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/assignments/1/admins');
    await expectAuthRequired(server, 'PUT', '/assignments/1/admins', { ids: [] });
  });
});

describe('POST /assignments/{id}/finalization', () => {
  it('finalizes the assignment on a date and logs it as the admin', async () => {
    const id = await createAssignment({ name: 'Final' });
    const response = await org.post(`/assignments/${id}/finalization`, { date: '2015-03-15', admin_id: adminId });
    expect(response).toAnswer(200, { success: true });
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe('John Smith finalized assignment Final on 2015-03-15.');
  });

  it('accepts form fields', async () => {
    const id = await createAssignment();
    const response = await org.post(
      `/assignments/${id}/finalization`,
      { date: '2015-03-15', admin_id: String(adminId) },
      { form: true },
    );
    expect(response).toAnswer(200, { success: true });
  });

  it('is a 422 when already finalized on the date', async () => {
    const id = await createAssignment();
    await org.post(`/assignments/${id}/finalization`, { date: '2015-03-15', admin_id: adminId });
    const response = await org.post(`/assignments/${id}/finalization`, { date: '2015-03-15', admin_id: adminId });
    expect(response).toAnswer(422, {
      error: 'invalid_params',
      status: 422,
      error_message: [`Assignment (#${id}) has already been finalized on 2015-03-15.`],
    });
  });

  it('finalizes exactly once under 50 parallel identical requests', async () => {
    const id = await createAssignment();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        org.post(`/assignments/${id}/finalization`, { date: '2015-03-16', admin_id: adminId }),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 422)).toHaveLength(49);
  });

  it('is a 422 for an unknown admin', async () => {
    const id = await createAssignment();
    const response = await org.post(`/assignments/${id}/finalization`, { date: '2015-03-15', admin_id: 999999 });
    expect(response).toAnswer(422, {
      error: 'invalid_params',
      status: 422,
      error_message: ['The selected admin id is invalid.'],
    });
  });

  it('rejects a future date', async () => {
    const id = await createAssignment();
    const response = await org.post(`/assignments/${id}/finalization`, { date: '2099-01-01', admin_id: adminId });
    expect(response).toAnswer(422, {
      error: 'invalid_params',
      status: 422,
      error_message: [`Assignment (#${id}) Finalization is only allowed on past and current dates.`],
    });
  });

  it('requires date and admin_id', async () => {
    const id = await createAssignment();
    const response = await org.post(`/assignments/${id}/finalization`, {});
    expect(response.status).toBe(422);
    expect(response.body.error_message).toEqual(['The date field is required.', 'The admin id field is required.']);
  });

  it('is a 404 for a missing or foreign assignment', async () => {
    const response = await org.post('/assignments/999999/finalization', { date: '2015-03-15', admin_id: adminId });
    expect(response).toBeNotFound('Assignment');
    await expectNotFoundForOtherOrg(other, 'POST', `/assignments/${await createAssignment()}/finalization`, {
      date: '2015-03-15',
      admin_id: adminId,
    });
  });

  it('requires a token', () =>
    expectAuthRequired(server, 'POST', '/assignments/1/finalization', { date: '2015-03-15', admin_id: 1 }));
});

describe('DELETE /assignments/{id}/finalization', () => {
  it('removes the finalization of the date', async () => {
    const id = await createAssignment({ name: 'Unfinal' });
    await org.post(`/assignments/${id}/finalization`, { date: '2015-03-15', admin_id: adminId });
    const response = await org.del(`/assignments/${id}/finalization`, { date: '2015-03-15' });
    expect(response).toAnswer(200, { success: true });
    const again = await org.post(`/assignments/${id}/finalization`, { date: '2015-03-15', admin_id: adminId });
    expect(again.status).toBe(200);
    const logs = await org.get('/logs');
    expect(logs.body.data[1].event_description).toMatch(/unfinalized assignment Unfinal on 2015-03-15\.$/);
  });

  it('accepts the date in the query string', async () => {
    const id = await createAssignment();
    await org.post(`/assignments/${id}/finalization`, { date: '2015-03-15', admin_id: adminId });
    const response = await org.del(`/assignments/${id}/finalization`, undefined, { query: { date: '2015-03-15' } });
    expect(response).toAnswer(200, { success: true });
  });

  it('is a 422 when not finalized on the date', async () => {
    const id = await createAssignment();
    const response = await org.del(`/assignments/${id}/finalization`, { date: '2015-03-15' });
    expect(response).toAnswer(422, {
      error: 'invalid_params',
      status: 422,
      error_message: [`Assignment (#${id}) is not finalized on 2015-03-15.`],
    });
  });

  it('requires the date', async () => {
    const id = await createAssignment();
    const response = await org.del(`/assignments/${id}/finalization`);
    expect(response).toBeInvalid(['The date field is required.']);
  });

  it('is a 404 for another organization', async () =>
    expectNotFoundForOtherOrg(other, 'DELETE', `/assignments/${await createAssignment()}/finalization`, {
      date: '2015-03-15',
    }));

  it('requires a token', () =>
    expectAuthRequired(server, 'DELETE', '/assignments/1/finalization', { date: '2015-03-15' }));
});

describe('contracts for other resources (repository.ts)', () => {
  it('listAssignmentsForRange keeps assignments that may have occurrences in the range', async () => {
    const target = await server.newOrg();
    const make = async (body: Record<string, unknown>) =>
      (await target.post('/assignments', { ...stationBody, ...body })).body.id as number;
    const daily = await make({ name: 'Daily' });
    await make({ name: 'Ended', until: '2015-02-28' });
    const endsInside = await make({ name: 'Ends inside', until: '2015-03-05' });
    await make({ name: 'Starts later', start: '2015-04-01 08:00:00', end: '2015-04-02 08:00:00' });
    await make({ name: 'One-off before', rrule: null, start: '2015-02-01 08:00:00', end: '2015-02-02 08:00:00' });
    const oneOffInto = await make({
      name: 'One-off into',
      rrule: null,
      start: '2015-02-28 08:00:00',
      end: '2015-03-01 08:00:00',
    });
    const deleted = await make({ name: 'Deleted' });
    await target.del(`/assignments/${deleted}`);
    const rows = await listAssignmentsForRange(server.app.db, target.orgId, '2015-03-01', '2015-03-31');
    expect(rows.map((row) => row.id).sort((a, b) => a - b)).toEqual([daily, endsInside, oneOffInto]);
    const byId = await findAssignmentsByIds(server.app.db, target.orgId, [daily, deleted, 999999]);
    expect([...byId.keys()]).toEqual([daily]);
    await expect(findAssignmentOrThrow(server.app.db, other.orgId, daily)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('finalizedDates lists finalized assignment dates of the range as id|date', async () => {
    const target = await server.newOrg();
    const admin = await target.createUser();
    const id = (await target.post('/assignments', stationBody)).body.id as number;
    for (const date of ['2015-02-28', '2015-03-01', '2015-03-31', '2015-04-01']) {
      await target.post(`/assignments/${id}/finalization`, { date, admin_id: admin });
    }
    const finalized = await finalizedDates(server.app.db, target.orgId, '2015-03-01', '2015-03-31');
    expect([...finalized].sort()).toEqual([`${id}|2015-03-01`, `${id}|2015-03-31`]);
    expect((await finalizedDates(server.app.db, other.orgId, '2015-03-01', '2015-03-31')).size).toBe(0);
  });
});
