import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { type TestOrg, useOrgs } from '../../../test/helpers/server.js';

const { server, org, other } = await useOrgs();

const newUser = {
  username: 'olinagy',
  first_name: 'Oliver',
  last_name: 'Nagy',
  mail: 'oli.nagy@example.com',
  password: 'correct horse',
  employee_id: 'DEV123',
  phone_numbers: ['5555555555'],
  role: 'Deputy',
  date_of_hire: '2011-03-04',
  date_of_birth: '1987-07-04',
};

const expectedUser = (id: number) => ({
  user_id: id,
  employee_id: 'DEV123',
  username: 'olinagy',
  first_name: 'Oliver',
  last_name: 'Nagy',
  full_name: 'Oliver Nagy',
  role: 'Deputy',
  avatar_url: null,
  date_of_hire: '2011-03-04',
  date_of_birth: '1987-07-04',
  accrual_start_date: '2011-03-04',
  emails: ['oli.nagy@example.com'],
  phone_numbers: ['5555555555'],
  accrual_track: null,
  accrual_profile: null,
});

let userId: number;

describe('PUT /users', () => {
  it('creates a user and answers 201 with the id and the user', async () => {
    const response = await org.put('/users', newUser);
    expect(response.status).toBe(201);
    userId = response.body.id;
    expect(response).toSucceed(201, 'User created successfully.', {
      id: expect.any(Number),
      ...expectedUser(userId),
      fields: [],
    });
  });

  it('rejects a username already taken in the organization', async () => {
    const response = await org.put('/users', newUser);
    expect(response).toBeInvalid(['The username has already been taken.']);
  });

  it('lets another organization use the same username', async () => {
    const response = await other.put('/users', newUser);
    expect(response.status).toBe(201);
  });

  it('requires username, names, mail and password', async () => {
    for (const field of ['username', 'first_name', 'last_name', 'mail', 'password']) {
      const body: Record<string, unknown> = { ...newUser, username: `u-${field}` };
      delete body[field];
      const response = await org.put('/users', body);
      expect(response.status, field).toBe(422);
      expect(response).toBeInvalid([`The ${field.replace('_', ' ')} field is required.`]);
    }
    const noAddress = await org.put('/users', { ...newUser, username: 'u-no-address', mail: [] });
    expect(noAddress.status).toBe(422);
    expect(noAddress.body.error_message).toEqual(['The mail must have at least 1 item.']);
  });

  it('rejects phone numbers that are not digits only and invalid dates', async () => {
    const phone = await org.put('/users', { ...newUser, username: 'phone', phone_numbers: ['555-555'] });
    expect(phone.status).toBe(422);
    const date = await org.put('/users', { ...newUser, username: 'date', date_of_hire: '2011-02-30' });
    expect(date.status).toBe(422);
    const mail = await org.put('/users', { ...newUser, username: 'mail', mail: 'not-an-email' });
    expect(mail.status).toBe(422);
  });

  it('accepts the single `phone` field of the sample', async () => {
    const response = await org.put('/users', {
      ...newUser,
      username: 'phoneuser',
      employee_id: 'PH1',
      phone_numbers: undefined,
      phone: '1231231232',
    });
    expect(response.status).toBe(201);
    expect(response.body.phone_numbers).toEqual(['1231231232']);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'PUT', '/users', newUser);
  });
});

describe('GET /users', () => {
  it('lists the active users of the organization only', async () => {
    const response = await org.get('/users');
    expect(response.status).toBe(200);
    expect(response.body).toContainEqual(expectedUser(userId));
    const otherUsers = await other.get('/users');
    expect(otherUsers.body.map((u: { user_id: number }) => u.user_id)).not.toContain(userId);
  });

  it('filters by employee_id', async () => {
    const response = await org.get('/users', { query: { employee_id: 'DEV123' } });
    expect(response.body).toEqual([expectedUser(userId)]);
    const none = await org.get('/users', { query: { employee_id: 'NOPE' } });
    expect(none.body).toEqual([]);
  });
});

describe('GET /users/{user_id}', () => {
  it('returns the user with the organization fields', async () => {
    const field = await org.post('/user_fields', { label: 'Retired?' });
    expect(field.status).toBe(201);
    const unset = await org.post('/user_fields', { label: 'Locker' });
    expect(unset.status).toBe(201);
    await org.patch(`/users/${userId}`, { fields: [{ id: field.body.id, value: '1' }] });
    const before = server.queryCount();
    const response = await org.get(`/users/${userId}`);
    expect(response.status).toBe(200);
    // a hot path: the user, its accrual names and its fields in one statement (plus the token check)
    expect(server.queryCount() - before).toBe(1);
    expect(response.body).toEqual({
      ...expectedUser(userId),
      fields: [
        { id: field.body.id, label: 'Retired?', value: '1' },
        { id: unset.body.id, label: 'Locker', value: null },
      ],
    });
    expect(Object.keys(response.body)).toEqual([
      'user_id',
      'employee_id',
      'username',
      'first_name',
      'last_name',
      'full_name',
      'role',
      'avatar_url',
      'date_of_hire',
      'date_of_birth',
      'accrual_start_date',
      'emails',
      'phone_numbers',
      'fields',
      'accrual_track',
      'accrual_profile',
    ]);
  });

  it('accepts the id as a string', async () => {
    const response = await org.get(`/users/${String(userId)}`);
    expect(response.status).toBe(200);
  });

  it('answers 404 naming the model for a missing user', async () => {
    const response = await org.get('/users/999999');
    expect(response).toBeNotFound('User');
  });

  it('answers 404 for an id that is not a number, as for a missing user', async () => {
    const response = await org.get('/users/abc');
    expect(response).toBeNotFound('User');
  });

  it("answers 404 for another organization's user", async () => {
    await expectNotFoundForOtherOrg(other, 'GET', `/users/${userId}`);
    await expectNotFoundForOtherOrg(other, 'PATCH', `/users/${userId}`, { first_name: 'Hacked' });
    await expectNotFoundForOtherOrg(other, 'DELETE', `/users/${userId}`);
    expect((await org.get(`/users/${userId}`)).body.first_name).toBe('Oliver');
  });
});

/** An accrual profile of `owner` named `name`, written straight to the database. */
const insertAccrualProfile = (owner: TestOrg, name: string) =>
  server.app.db
    .insertInto('accrual_profile')
    .values({ organization_id: owner.orgId, name, deleted_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();

describe('PATCH /users/{user_id}', () => {
  it('changes any subset of the user, accrual references included', async () => {
    const profile = await insertAccrualProfile(org, 'Firefighter 5-10 years');
    const response = await org.patch(`/users/${userId}`, {
      first_name: 'Oli',
      accrual_profile: { id: profile.id },
      accrual_start_date: '2017-05-11',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      code: 200,
      status: 'ok',
      id: userId,
      user_id: userId,
      first_name: 'Oli',
      full_name: 'Oli Nagy',
      accrual_start_date: '2017-05-11',
      accrual_profile: { id: profile.id, name: 'Firefighter 5-10 years' },
      accrual_track: null,
    });
    const read = await org.get(`/users/${userId}`);
    expect(read.body.first_name).toBe('Oli');
  });

  it('rejects an accrual profile of another organization', async () => {
    const foreign = await insertAccrualProfile(other, 'Foreign');
    const response = await org.patch(`/users/${userId}`, { accrual_profile: { id: foreign.id } });
    expect(response).toBeInvalid(['The selected accrual profile id is invalid.']);
  });

  it('writes a system log entry', async () => {
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toMatch(/updated user Oli Nagy|updated user Oliver Nagy/);
  });
});

describe('DELETE /users/{user_id} (extension)', () => {
  it('removes the user from reads', async () => {
    const id = await org.createUser();
    const response = await org.del(`/users/${id}`);
    expect(response).toSucceed(200, 'User removed successfully.');
    expect((await org.get(`/users/${id}`)).status).toBe(404);
    expect((await org.get('/users')).body.map((u: { user_id: number }) => u.user_id)).not.toContain(id);
  });
});
