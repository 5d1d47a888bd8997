import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { startServer, type ApiResponse, type TestOrg, type TestServer } from '../../../test/helpers/server.js';

/**
 * What a member (a web app session of a user who is not an admin) sees of coworkers in GET /users
 * (issue 41, F6): the work contact only, unless the organization shares all; admins and the API
 * credential see every field.
 */
let server: TestServer;
let org: TestOrg;
let memberId: number;
let adminId: number;
let coworkerId: number;
const usernames = new Map<number, string>();

const PASSWORD = 'secret-password';

async function user(overrides: Record<string, unknown>): Promise<number> {
  const id = await org.createUser(overrides);
  const response = await org.patch(`/users/${id}`, {
    emails: [`${overrides.first_name}@work.example`, `${overrides.first_name}@home.example`],
  });
  expect(response.status).toBe(200);
  usernames.set(id, response.body.username);
  return id;
}

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  memberId = await user({ first_name: 'Sam', last_name: 'Crew', role: 'Firefighter', date_of_birth: '1990-04-01' });
  adminId = await user({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
  coworkerId = await user({
    first_name: 'Lee',
    last_name: 'Crew',
    role: 'Captain',
    employee_id: 'E-77',
    date_of_birth: '1985-02-03',
    date_of_hire: '2010-06-01',
    phone_numbers: ['5550100'],
  });
});
afterAll(() => server.close());

async function usersAs(userId: number): Promise<ApiResponse> {
  return (await org.signIn(userId, PASSWORD)).get('/users');
}

const byId = (response: ApiResponse) =>
  new Map((response.body as Array<{ user_id: number }>).map((entry) => [entry.user_id, entry]));

describe('GET /users for a member (issue 41, F6)', () => {
  it("shows coworkers' names, role and work e-mail only; the member's own entry whole", async () => {
    const full = byId(await org.get('/users'));
    const seen = await usersAs(memberId);
    expect(seen.status).toBe(200);
    const coworker = byId(seen).get(coworkerId);
    expect(coworker).toEqual({
      user_id: coworkerId,
      employee_id: 'E-77',
      username: usernames.get(coworkerId),
      first_name: 'Lee',
      last_name: 'Crew',
      full_name: 'Lee Crew',
      role: 'Captain',
      avatar_url: null,
      date_of_hire: null,
      date_of_birth: null,
      accrual_start_date: null,
      emails: ['Lee@work.example'],
      phone_numbers: [],
      accrual_track: null,
      accrual_profile: null,
    });
    expect(JSON.stringify(seen.body)).not.toMatch(/1985-02-03|(Lee|Dana)@home\.example|5550100/);
    expect(byId(seen).get(memberId)).toEqual(full.get(memberId));
  });

  it('shows every field to admins and to the API credential', async () => {
    const full = await org.get('/users');
    expect(byId(full).get(coworkerId)).toMatchObject({
      date_of_birth: '1985-02-03',
      date_of_hire: '2010-06-01',
      emails: ['Lee@work.example', 'Lee@home.example'],
      phone_numbers: ['5550100'],
    });
    expect((await usersAs(adminId)).body).toEqual(full.body);
  });

  it('shows every field to members once the organization shares all, and the work contact again after', async () => {
    expect(await org.get('/member_view')).toAnswer(200, { users: 'work_contact' });
    const shared = await org.put('/member_view', { users: 'all' });
    expect(shared).toSucceed(200, 'Member view updated successfully.', { member_view: { users: 'all' } });
    expect((await usersAs(memberId)).body).toEqual((await org.get('/users')).body);
    expect((await org.put('/member_view', { users: 'work_contact' })).status).toBe(200);
    expect(byId(await usersAs(memberId)).get(coworkerId)).toMatchObject({ date_of_birth: null, phone_numbers: [] });
  });

  it('refuses an unknown setting, and lets no member change it', async () => {
    expect((await org.put('/member_view', { users: 'everything' })).body).toEqual({
      status: 422,
      error: 'invalid_params',
      error_message: ['The selected users is invalid.'],
    });
    await expectAuthRequired(server, 'GET', '/v1/member_view');
    await expectAuthRequired(server, 'PUT', '/v1/member_view', { users: 'all' });
  });
});
