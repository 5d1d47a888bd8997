import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { startWithOrgs, type TestOrg, type TestServer } from '../../../test/helpers/server.js';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let adminId: number;
let workTypeId: number;
let otherWorkTypeId: number;
let subtypeId: number;

const isoOffset = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);

async function firstWorkTypeId(as: TestOrg): Promise<number> {
  const types = await as.get('/work_types');
  return types.body[0].id as number;
}

function eventBody(overrides: Record<string, unknown> = {}) {
  return {
    admin_id: adminId,
    title: 'Parade detail',
    start: '2030-05-04 08:00:00',
    end: '2030-05-04 12:30:00',
    employees_needed: 2,
    work_type_id: workTypeId,
    description: '<p>Testing!</p>',
    ...overrides,
  };
}

async function createEvent(overrides: Record<string, unknown> = {}): Promise<number> {
  const response = await org.post('/signup_events', eventBody(overrides));
  expect(response.status).toBe(201);
  return response.body.id;
}

async function signUp(eventId: number, userId: number) {
  return org.post(`/signup_events/${eventId}/users`, { user_id: userId });
}

beforeAll(async () => {
  ({ server, org, other } = await startWithOrgs());
  adminId = await org.createUser({ first_name: 'Hass', last_name: 'Brycen' });
  workTypeId = await firstWorkTypeId(org);
  otherWorkTypeId = await firstWorkTypeId(other);
  const subtype = await server.app.db
    .insertInto('work_subtype')
    .values({
      organization_id: org.orgId,
      work_type_id: workTypeId,
      label: 'Parade',
      work_code: 'PAR',
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  subtypeId = subtype.id;
});
afterAll(() => server.close());

describe('POST /signup_events', () => {
  it('creates an active event and answers with the sample envelope', async () => {
    const response = await org.post('/signup_events', eventBody({ title: 'My Signup Event' }));
    expect(response).toSucceed(201, 'Added signup event My Signup Event', {
      id: expect.any(Number),
    });
    const event = await org.get(`/signup_events/${response.body.id}`);
    expect(event.body.status).toBe('active');
  });

  it('requires every documented field', async () => {
    for (const field of ['admin_id', 'title', 'start', 'end', 'employees_needed', 'work_type_id']) {
      const body: Record<string, unknown> = eventBody();
      delete body[field];
      const response = await org.post('/signup_events', body);
      expect(response.status, field).toBe(422);
      expect(response).toBeInvalid([`The ${field.replace(/_/g, ' ')} field is required.`]);
    }
  });

  it('rejects an unknown admin, work type or subtype with 422', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ admin_id: 999_999 }, 'The selected admin id is invalid.'],
      [{ work_type_id: otherWorkTypeId }, 'The selected work type id is invalid.'],
      [{ work_subtype_id: 999_999 }, 'The selected work subtype id is invalid.'],
    ];
    for (const [overrides, message] of cases) {
      const response = await org.post('/signup_events', eventBody(overrides));
      expect(response).toBeInvalid([message]);
    }
  });

  it('rejects an end that is not after the start', async () => {
    const response = await org.post('/signup_events', eventBody({ end: '2030-05-04 08:00:00' }));
    expect(response).toBeInvalid(['The end must be after the start.']);
  });

  it('sanitizes the description HTML', async () => {
    const id = await createEvent({ description: '<p onclick="x()">Hi<script>alert(1)</script></p>' });
    const response = await org.get(`/signup_events/${id}`);
    expect(response.body.description).toBe('<p>Hi</p>');
  });

  it('writes a system log entry naming the admin', async () => {
    await createEvent({ title: 'Logged event' });
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe(
      'Hass Brycen added signup event Logged event (2030-05-04 08:00:00 to 2030-05-04 12:30:00, 2 needed).',
    );
    expect(logs.body.data[0].user.id).toBe(String(adminId));
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'POST', '/signup_events', eventBody());
  });
});

describe('GET /signup_events/{id}', () => {
  it('returns the event with deleted_by/deleted_at null while not deleted', async () => {
    const id = await createEvent({ work_subtype_id: subtypeId });
    const response = await org.get(`/signup_events/${id}`);
    expect(response).toAnswer(200, {
      id,
      work_type_id: workTypeId,
      work_subtype_id: subtypeId,
      title: 'Parade detail',
      start: '2030-05-04 08:00:00',
      end: '2030-05-04 12:30:00',
      description: '<p>Testing!</p>',
      created_by: adminId,
      created_at: isoOffset,
      modified_by: adminId,
      modified_at: isoOffset,
      deleted_by: null,
      deleted_at: null,
      employees_needed: 2,
      status: 'active',
    });
    expect(Object.keys(response.body)).toEqual([
      'id',
      'work_type_id',
      'work_subtype_id',
      'title',
      'start',
      'end',
      'description',
      'created_by',
      'created_at',
      'modified_by',
      'modified_at',
      'deleted_by',
      'deleted_at',
      'employees_needed',
      'status',
    ]);
  });

  it('answers 404 for a missing event and for another organization', async () => {
    const id = await createEvent();
    const missing = await org.get('/signup_events/999999');
    expect(missing).toBeNotFound('SignupEvent');
    await expectNotFoundForOtherOrg(other, 'GET', `/signup_events/${id}`);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/signup_events/1');
  });
});

describe('DELETE /signup_events/{id} (extension)', () => {
  it('soft-deletes: still readable by id with status deleted, deleted_by and deleted_at', async () => {
    const id = await createEvent({ title: 'Gone' });
    const response = await org.del(`/signup_events/${id}`, undefined, { query: { admin_id: adminId } });
    expect(response).toSucceed(200, 'Deleted signup event Gone', { id });
    const event = await org.get(`/signup_events/${id}`);
    expect(event.status).toBe(200);
    expect(event.body).toMatchObject({ id, status: 'deleted', deleted_by: adminId, deleted_at: isoOffset });
  });

  it("records the event's creator as deleted_by when no admin_id is given: never null on a deleted event", async () => {
    const id = await createEvent({ title: 'Gone too' });
    expect((await org.del(`/signup_events/${id}`)).status).toBe(200);
    const event = await org.get(`/signup_events/${id}`);
    expect(event.body).toMatchObject({ status: 'deleted', deleted_by: event.body.created_by, deleted_at: isoOffset });
    expect(event.body.deleted_by).not.toBeNull();
  });

  it('refuses to delete twice and refuses sign-ups and changes of a deleted event', async () => {
    const id = await createEvent();
    await org.del(`/signup_events/${id}`);
    const again = await org.del(`/signup_events/${id}`);
    expect(again).toBeInvalid([`Signup event #${id} is already deleted.`]);
    const user = await org.createUser();
    const signup = await signUp(id, user);
    expect(signup).toBeInvalid([`Signup event #${id} is deleted.`]);
    const put = await org.put(`/signup_events/${id}`, eventBody());
    expect(put.status).toBe(422);
  });

  it('answers 404 for another organization and requires a token', async () => {
    const id = await createEvent();
    await expectNotFoundForOtherOrg(other, 'DELETE', `/signup_events/${id}`);
    await expectAuthRequired(server, 'DELETE', `/signup_events/${id}`);
  });
});

describe('PUT /signup_events/{id}', () => {
  it('replaces every field and answers with the sample envelope', async () => {
    const id = await createEvent({ work_subtype_id: subtypeId });
    const editor = await org.createUser({ first_name: 'Edna', last_name: 'Editor' });
    const body = eventBody({
      admin_id: editor,
      title: 'My Changed Signup Event',
      start: '2030-06-01 09:00:00',
      end: '2030-06-01 17:00:00',
      employees_needed: 4,
    });
    delete (body as Record<string, unknown>).description;
    const response = await org.put(`/signup_events/${id}`, body);
    expect(response).toSucceed(200, 'Updated signup event My Changed Signup Event', {
      id,
    });
    const event = await org.get(`/signup_events/${id}`);
    expect(event.body).toMatchObject({
      title: 'My Changed Signup Event',
      start: '2030-06-01 09:00:00',
      end: '2030-06-01 17:00:00',
      employees_needed: 4,
      work_subtype_id: null,
      description: null,
      created_by: adminId,
      modified_by: editor,
    });
  });

  it("moves the sign-ups' misc hours with the event's new times, title and work type", async () => {
    const id = await createEvent();
    const user = await org.createUser({ first_name: 'Mona', last_name: 'Mover' });
    expect((await signUp(id, user)).status).toBe(201);
    const miscHourId = (await org.get(`/signup_events/${id}/users`)).body[0].misc_hour_id;
    const body = eventBody({
      title: 'Moved parade',
      start: '2030-06-02 10:00:00',
      end: '2030-06-02 16:00:00',
      work_subtype_id: subtypeId,
    });
    expect((await org.put(`/signup_events/${id}`, body)).status).toBe(200);
    expect((await org.get(`/misc_hours/${miscHourId}`)).body).toMatchObject({
      date: '2030-06-02',
      start: '2030-06-02 10:00:00',
      end: '2030-06-02 16:00:00',
      length: 6,
      work_type_id: workTypeId,
      work_subtype_id: subtypeId,
      notes: 'Signup event: Moved parade',
    });
    const old = await org.get('/misc_hours', { query: { start: '2030-05-04', user_id: user } });
    expect(old.body).toEqual([]);
    // a refused change moves nothing
    const refused = await org.put(`/signup_events/${id}`, { ...body, start: '2030-06-03 10:00:00' });
    expect(refused.status).toBe(422);
    expect((await org.get(`/misc_hours/${miscHourId}`)).body.start).toBe('2030-06-02 10:00:00');
  });

  it('requires all fields', async () => {
    const id = await createEvent();
    const response = await org.put(`/signup_events/${id}`, { title: 'Only a title' });
    expect(response.status).toBe(422);
    expect(response.body.error_message).toContain('The admin id field is required.');
  });

  it('answers 404 for a missing event and another organization, 401 without a token', async () => {
    const id = await createEvent();
    const missing = await org.put('/signup_events/999999', eventBody());
    expect(missing.status).toBe(404);
    await expectNotFoundForOtherOrg(other, 'PUT', `/signup_events/${id}`, {
      ...eventBody(),
      admin_id: adminId,
      work_type_id: otherWorkTypeId,
    });
    await expectAuthRequired(server, 'PUT', `/signup_events/${id}`, eventBody());
  });
});

describe('POST /signup_events/{id}/users', () => {
  it('signs a user up and creates a misc-hours entry for the event span', async () => {
    const id = await createEvent({ title: 'My Changed Signup Event' });
    const user = await org.createUser({ first_name: 'Oliver', last_name: 'Nagy' });
    const response = await signUp(id, user);
    expect(response).toSucceed(201, 'Signed Oliver Nagy up for event My Changed Signup Event', {
      id,
    });
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe(
      'Oliver Nagy signed up for event My Changed Signup Event (2030-05-04 08:00:00 to 2030-05-04 12:30:00).',
    );
    const users = await org.get(`/signup_events/${id}/users`);
    const miscHourId = users.body[0].misc_hour_id;
    expect(miscHourId).toEqual(expect.any(Number));
    const misc = await org.get(`/misc_hours/${miscHourId}`);
    expect(misc.body).toMatchObject({
      id: miscHourId,
      date: '2030-05-04',
      length: 4.5,
      user: { id: user, name: 'Oliver Nagy' },
      work_type_id: workTypeId,
      work_subtype_id: null,
      start: '2030-05-04 08:00:00',
      end: '2030-05-04 12:30:00',
    });
    const schedule = await org.get('/schedule', {
      query: { start: '2030-05-04 00:00:00', end: '2030-05-05 00:00:00' },
    });
    expect(schedule.body.days[0].misc).toContainEqual({
      id: miscHourId,
      href: `${server.url}/v1/misc/${miscHourId}`,
      date: '2030-05-04',
      length: 4.5,
      user: { id: user, href: `${server.url}/v1/users/${user}`, name: 'Oliver Nagy' },
      work_type: 'Regular Time',
    });
  });

  it('refuses a user already signed up with the sample message', async () => {
    const id = await createEvent();
    const user = await org.createUser();
    await signUp(id, user);
    const response = await signUp(id, user);
    expect(response).toBeInvalid([`User #${user} is already signed up for event #${id}`]);
  });

  it('becomes filled at employees_needed and refuses further sign-ups', async () => {
    const id = await createEvent({ employees_needed: 1 });
    const [first, second] = [await org.createUser(), await org.createUser()];
    expect((await signUp(id, first)).status).toBe(201);
    expect((await org.get(`/signup_events/${id}`)).body.status).toBe('filled');
    const response = await signUp(id, second);
    expect(response).toBeInvalid([`Signup event #${id} is already filled.`]);
  });

  it('refuses an unknown user with 422 and a user of another organization the same way', async () => {
    const id = await createEvent();
    const stranger = await other.createUser();
    for (const userId of [999_999, stranger]) {
      const response = await signUp(id, userId);
      expect(response).toBeInvalid(['The selected user id is invalid.']);
    }
  });

  it('lets exactly employees_needed of 20 parallel sign-ups through', async () => {
    const id = await createEvent({ employees_needed: 5 });
    const users: number[] = [];
    for (let i = 0; i < 20; i += 1) users.push(await org.createUser());
    const responses = await Promise.all(users.map((user) => signUp(id, user)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s >= 400 && s < 500)).toHaveLength(15);
    const signups = await org.get(`/signup_events/${id}/users`);
    expect(signups.body).toHaveLength(5);
    const misc = await org.get('/misc_hours', { query: { start: '2030-05-04', end: '2030-05-04' } });
    expect(misc.body.filter((entry: { user: { id: number } }) => users.includes(entry.user.id))).toHaveLength(5);
    expect((await org.get(`/signup_events/${id}`)).body.status).toBe('filled');
  });

  it('answers 404 for another organization and 401 without a token', async () => {
    const id = await createEvent();
    await expectNotFoundForOtherOrg(other, 'POST', `/signup_events/${id}/users`, { user_id: adminId });
    await expectAuthRequired(server, 'POST', `/signup_events/${id}/users`, { user_id: adminId });
  });
});

describe('GET /signup_events/{id}/users', () => {
  it('lists the signed-up users in sign-up order', async () => {
    const id = await createEvent({ employees_needed: 3 });
    const first = await org.createUser({ first_name: 'Olivér', last_name: 'Nagy' });
    const second = await org.createUser({ first_name: 'Boss', last_name: 'Doe' });
    await signUp(id, first);
    await signUp(id, second);
    const response = await org.get(`/signup_events/${id}/users`);
    expect(response).toAnswer(200, [
      {
        id: expect.any(Number),
        user: { id: first, name: 'Olivér Nagy', href: `${server.url}/v1/users/${first}` },
        misc_hour_id: expect.any(Number),
      },
      {
        id: expect.any(Number),
        user: { id: second, name: 'Boss Doe', href: `${server.url}/v1/users/${second}` },
        misc_hour_id: expect.any(Number),
      },
    ]);
  });

  it('answers 404 for a missing event and another organization, 401 without a token', async () => {
    const id = await createEvent();
    expect((await org.get('/signup_events/999999/users')).status).toBe(404);
    await expectNotFoundForOtherOrg(other, 'GET', `/signup_events/${id}/users`);
    await expectAuthRequired(server, 'GET', `/signup_events/${id}/users`);
  });
});

describe('DELETE /signup_events/{id}/users/{user_id}', () => {
  it('removes the user and the misc-hours entry made at sign-up, reopening a filled event', async () => {
    const id = await createEvent({ employees_needed: 1, title: 'My Changed Signup Event' });
    const user = await org.createUser({ first_name: 'Hass', last_name: 'Brycen' });
    await signUp(id, user);
    const [signup] = (await org.get(`/signup_events/${id}/users`)).body;
    const response = await org.del(`/signup_events/${id}/users/${user}`);
    expect(response).toSucceed(200, 'Removed Hass Brycen from event My Changed Signup Event', {
      id,
    });
    expect((await org.get(`/signup_events/${id}/users`)).body).toEqual([]);
    expect((await org.get(`/misc_hours/${signup.misc_hour_id}`)).status).toBe(404);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe('Hass Brycen was removed from event My Changed Signup Event.');
    expect((await org.get(`/signup_events/${id}`)).body.status).toBe('active');
  });

  it('refuses a user who is not signed up with the sample message', async () => {
    const id = await createEvent();
    const response = await org.del(`/signup_events/${id}/users/${adminId}`);
    expect(response).toBeInvalid([`User #${adminId} not found in Signup Event.`]);
  });

  it('answers 404 for another organization and 401 without a token', async () => {
    const id = await createEvent();
    await expectNotFoundForOtherOrg(other, 'DELETE', `/signup_events/${id}/users/${adminId}`);
    await expectAuthRequired(server, 'DELETE', `/signup_events/${id}/users/${adminId}`);
  });
});

describe('GET /signup_events', () => {
  let listOrg: TestOrg;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    listOrg = await server.newOrg();
    const admin = await listOrg.createUser();
    const workType = await firstWorkTypeId(listOrg);
    const users = [await listOrg.createUser(), await listOrg.createUser()];
    const make = async (title: string, start: string, end: string, needed: number) => {
      const response = await listOrg.post('/signup_events', {
        admin_id: admin,
        title,
        start,
        end,
        employees_needed: needed,
        work_type_id: workType,
      });
      return response.body.id as number;
    };
    ids.active = await make('active', '2031-01-10 08:00:00', '2031-01-10 16:00:00', 2);
    ids.filled = await make('filled', '2031-02-10 08:00:00', '2031-02-10 16:00:00', 1);
    ids.partial = await make('partial', '2020-03-10 08:00:00', '2020-03-10 16:00:00', 2);
    ids.notFilled = await make('not filled', '2020-04-10 08:00:00', '2020-04-10 16:00:00', 2);
    ids.deleted = await make('deleted', '2031-05-10 08:00:00', '2031-05-10 16:00:00', 2);
    await listOrg.post(`/signup_events/${ids.filled}/users`, { user_id: users[0] });
    await listOrg.post(`/signup_events/${ids.partial}/users`, { user_id: users[1] });
    await listOrg.del(`/signup_events/${ids.deleted}`);
  });

  const titles = (body: Array<{ title: string }>) => body.map((e) => e.title);

  it('returns every non-deleted event in the list shape (no deleted_by/deleted_at)', async () => {
    const response = await listOrg.get('/signup_events');
    expect(response.status).toBe(200);
    expect(titles(response.body)).toEqual(['active', 'filled', 'partial', 'not filled']);
    expect(response.body.map((e: { status: string }) => e.status)).toEqual([
      'active',
      'filled',
      'partially_filled',
      'not_filled',
    ]);
    expect(response.body[0]).toEqual({
      id: ids.active,
      work_type_id: expect.any(Number),
      work_subtype_id: null,
      title: 'active',
      start: '2031-01-10 08:00:00',
      end: '2031-01-10 16:00:00',
      description: null,
      created_by: expect.any(Number),
      created_at: isoOffset,
      modified_by: expect.any(Number),
      modified_at: isoOffset,
      employees_needed: 2,
      status: 'active',
    });
  });

  it('deleted=1 (or true) returns only deleted events', async () => {
    for (const value of ['1', 'true']) {
      const response = await listOrg.get('/signup_events', { query: { deleted: value } });
      expect(titles(response.body)).toEqual(['deleted']);
      expect(response.body[0].status).toBe('deleted');
    }
  });

  it('deleted with status, archived, start or end returns nothing: those keep non-deleted events only', async () => {
    for (const other of [
      { status: 'active' },
      { status: 'not_filled' },
      { archived: 1 },
      { start: '2000-01-01 00:00:00' },
      { end: '2100-01-01 00:00:00' },
    ]) {
      const response = await listOrg.get('/signup_events', { query: { deleted: 1, ...other } });
      expect(response).toAnswer(200, []);
    }
  });

  it('archived=1 returns non-deleted, non-active events', async () => {
    const response = await listOrg.get('/signup_events', { query: { archived: 1 } });
    expect(titles(response.body)).toEqual(['filled', 'partial', 'not filled']);
  });

  it('status returns non-deleted events of that status', async () => {
    const expected: Record<string, string[]> = {
      active: ['active'],
      filled: ['filled'],
      partially_filled: ['partial'],
      not_filled: ['not filled'],
    };
    for (const [status, expectedTitles] of Object.entries(expected)) {
      const response = await listOrg.get('/signup_events', { query: { status } });
      expect(titles(response.body), status).toEqual(expectedTitles);
    }
  });

  it('rejects an unknown status', async () => {
    const response = await listOrg.get('/signup_events', { query: { status: 'deleted' } });
    expect(response.status).toBe(422);
  });

  it('start keeps events starting at or after it; end keeps events ending at or before it', async () => {
    const fromStart = await listOrg.get('/signup_events', { query: { start: '2031-01-10 08:00:00' } });
    expect(titles(fromStart.body)).toEqual(['active', 'filled']);
    const untilEnd = await listOrg.get('/signup_events', { query: { end: '2020-04-10 16:00:00' } });
    expect(titles(untilEnd.body)).toEqual(['partial', 'not filled']);
    const both = await listOrg.get('/signup_events', {
      query: { start: '2020-04-01 00:00:00', end: '2031-01-31 00:00:00' },
    });
    expect(titles(both.body)).toEqual(['active', 'not filled']);
  });

  it('ignores a false flag and requires a token', async () => {
    const response = await listOrg.get('/signup_events', { query: { deleted: 0 } });
    expect(titles(response.body)).toEqual(['active', 'filled', 'partial', 'not filled']);
    await expectAuthRequired(server, 'GET', '/signup_events');
  });
});
