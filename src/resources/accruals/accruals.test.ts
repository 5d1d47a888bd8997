import { describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { useOrgs, type TestOrg } from '../../../test/helpers/server.js';
import { Temporal } from '../../core/time.js';
import { postTimeOff } from '../time-offs/test-fixtures.js';

const { server, org, other } = await useOrgs();
const adminId = await org.createUser({ first_name: 'Joe', last_name: 'Boss' });
const sickId: number = (await org.post('/time_off_types', { label: 'Sick' })).body.id;
const vacationId: number = (await org.post('/time_off_types', { label: 'Vacation' })).body.id;
const earnedId: number = (await org.post('/time_off_types', { label: 'Earned Time' })).body.id;

async function createProfile(as: TestOrg, name: string, rules: Array<Record<string, unknown>>) {
  const response = await as.post('/accrual_profiles', { name, rules });
  expect(response.status).toBe(201);
  return response.body.id as number;
}

const bank = (userId: number, body: Record<string, unknown>) => org.post(`/users/${userId}/timeoff/accrual/bank`, body);

describe('GET /accruals', () => {
  it('lists the rule entries of every profile with string type ids', async () => {
    const fresh = await server.newOrg();
    const sick = (await fresh.post('/time_off_types', { label: 'Sick' })).body.id;
    const vacation = (await fresh.post('/time_off_types', { label: 'Vacation' })).body.id;
    await createProfile(fresh, 'Firefighter', [
      { time_off_type_id: sick, method: 'pay_period', hours: 6, max_hours: 150 },
      { time_off_type_id: vacation, method: 'year', hours: 144, max_hours: 300 },
    ]);
    const response = await fresh.get('/accruals');
    expect(response).toAnswer(200, [
      {
        time_off_type: { id: String(sick), name: 'Sick' },
        accrual_type: 'Accrues 6 hours every pay period (max. 150 hours)',
      },
      {
        time_off_type: { id: String(vacation), name: 'Vacation' },
        accrual_type: 'Accrues 144 hours every year (max. 300 hours)',
      },
    ]);
    expect((await other.get('/accruals')).body).toEqual([]);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/accruals');
  });
});

describe('GET /users/{user_id}/timeoff/accrual/profile', () => {
  it("describes the user's profile rule for every type", async () => {
    const profile = await createProfile(org, 'Firefighter 5-10 years', [
      { time_off_type_id: sickId, method: 'days', hours: 10, interval: 28 },
      { time_off_type_id: vacationId, method: 'hours_worked', hours: 1, interval: 10, max_hours: 12 },
    ]);
    const user = await org.createUser();
    await org.patch(`/users/${user}`, { accrual_profile: { id: profile } });
    const response = await org.get(`/users/${user}/timeoff/accrual/profile`);
    expect(response).toAnswer(200, [
      { time_off_type: { id: sickId, name: 'Sick' }, accrual_type: 'Accrues 10 hours every 28 days' },
      {
        time_off_type: { id: vacationId, name: 'Vacation' },
        accrual_type: 'Accrues one hour every 10 hours worked (max. 12 hours)',
      },
      { time_off_type: { id: earnedId, name: 'Earned Time' }, accrual_type: 'No automatic accrual' },
    ]);
  });

  it("follows the user's track by years of service", async () => {
    const junior = await createProfile(org, 'Junior', [{ time_off_type_id: sickId, method: 'month', hours: 4 }]);
    const senior = await createProfile(org, 'Senior', [{ time_off_type_id: sickId, method: 'month', hours: 8 }]);
    const track = (
      await org.post('/accrual_tracks', {
        name: 'Firefighter',
        steps: [
          { profile_id: junior, from_years: 0 },
          { profile_id: senior, from_years: 5 },
        ],
      })
    ).body.id;
    const veteran = await org.createUser({ date_of_hire: '2015-01-01' });
    const rookie = await org.createUser({
      date_of_hire: Temporal.Now.plainDateISO().subtract({ years: 1 }).toString(),
    });
    for (const user of [veteran, rookie]) await org.patch(`/users/${user}`, { accrual_track: { id: track } });
    const text = async (user: number) => (await org.get(`/users/${user}/timeoff/accrual/profile`)).body[0].accrual_type;
    expect(await text(veteran)).toBe('Accrues 8 hours every month');
    expect(await text(rookie)).toBe('Accrues 4 hours every month');
  });

  it('answers 404 for an unknown user or another organization', async () => {
    expect((await org.get('/users/999999/timeoff/accrual/profile')).status).toBe(404);
    await expectNotFoundForOtherOrg(other, 'GET', `/users/${adminId}/timeoff/accrual/profile`);
  });
});

describe('GET /users/{user_id}/timeoff/accrual/bank', () => {
  it('is empty for a user without bank', async () => {
    const user = await org.createUser();
    const response = await org.get(`/users/${user}/timeoff/accrual/bank`);
    expect(response).toAnswer(200, []);
  });

  it('credits calendar accruals due since the start, capped, once; capped periods leave a marker row', async () => {
    const profile = await createProfile(org, 'Weekly', [
      { time_off_type_id: vacationId, method: 'week', hours: 8, max_hours: 40 },
    ]);
    const start = Temporal.Now.plainDateISO('America/Chicago').subtract({ weeks: 10 }).toString();
    const user = await org.createUser({ accrual_start_date: start });
    await org.patch(`/users/${user}`, { accrual_profile: { id: profile } });
    const response = await org.get(`/users/${user}/timeoff/accrual/bank`);
    expect(response.body).toEqual([{ hours: 40, time_off_type: { id: String(vacationId), name: 'Vacation' } }]);
    expect((await org.get(`/users/${user}/timeoff/accrual/bank`)).body).toEqual(response.body);
    const ledger = (await org.get(`/users/${user}/timeoff/accrual/transactions`)).body;
    expect(ledger.map((row: { hours: number }) => row.hours)).toEqual([8, 8, 8, 8, 8, 0]);
    expect(ledger[0]).toEqual({
      id: expect.any(Number),
      time_off_type: { id: vacationId, name: 'Vacation' },
      hours: 8,
      kind: 'accrual',
      admin_id: null,
      notes: expect.stringMatching(/^Accrues 8 hours every week \(max\. 40 hours\): period ending \d{4}-\d{2}-\d{2}$/),
      time_off_id: null,
      created_at: expect.any(String),
      cause: null,
      flagged_date: null,
    });
  });
});

describe('POST /users/{user_id}/timeoff/accrual/bank', () => {
  it('adds and deducts hours as ledger transactions', async () => {
    const user = await org.createUser({ first_name: 'Brycen', last_name: 'Doe' });
    const added = await bank(user, {
      time_off_type_id: sickId,
      hours: 40,
      admin_id: adminId,
      notes: 'Opening balance',
    });
    expect(added).toSucceed(201, 'Accrual bank updated successfully.', {
      id: expect.any(Number),
      balance: 40,
    });
    const deducted = await bank(user, { time_off_type_id: sickId, hours: -12.5, admin_id: adminId });
    expect(deducted.body.balance).toBe(27.5);
    expect((await org.get(`/users/${user}/timeoff/accrual/bank`)).body).toEqual([
      { hours: 27.5, time_off_type: { id: String(sickId), name: 'Sick' } },
    ]);
    const ledger = (await org.get(`/users/${user}/timeoff/accrual/transactions`)).body;
    expect(
      ledger.map((row: { hours: number; kind: string; notes: string | null; admin_id: number }) => [
        row.hours,
        row.kind,
        row.notes,
        row.admin_id,
      ]),
    ).toEqual([
      [40, 'manual', 'Opening balance', adminId],
      [-12.5, 'manual', null, adminId],
    ]);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe('Joe Boss deducted 12.5 hours from the Sick bank of Brycen Doe.');
  });

  it('takes the type from the trailing /{id}', async () => {
    const user = await org.createUser();
    const response = await org.post(`/users/${user}/timeoff/accrual/bank/${vacationId}`, {
      hours: 8,
      admin_id: adminId,
    });
    expect(response.status).toBe(201);
    expect((await org.get(`/users/${user}/timeoff/accrual/bank`)).body).toEqual([
      { hours: 8, time_off_type: { id: String(vacationId), name: 'Vacation' } },
    ]);
  });

  it('lets an admin correction take the balance below zero', async () => {
    const user = await org.createUser();
    const response = await bank(user, { time_off_type_id: sickId, hours: -5, admin_id: adminId });
    expect(response.status).toBe(201);
    expect(response.body.balance).toBe(-5);
    expect((await org.get(`/users/${user}/timeoff/accrual/bank`)).body).toEqual([
      { hours: -5, time_off_type: { id: String(sickId), name: 'Sick' } },
    ]);
  });

  it('validates admin_id, the type and the hours', async () => {
    const user = await org.createUser();
    const missing = await bank(user, { time_off_type_id: sickId, hours: 1 });
    expect(missing).toBeInvalid(['The admin id field is required.']);
    expect((await bank(user, { time_off_type_id: sickId, hours: 1, admin_id: 999999 })).body.error_message).toEqual([
      'The selected admin id is invalid.',
    ]);
    expect((await bank(user, { time_off_type_id: 999999, hours: 1, admin_id: adminId })).body.error_message).toEqual([
      'The selected time off type id is invalid.',
    ]);
    expect((await bank(user, { hours: 1, admin_id: adminId })).body.error_message).toEqual([
      'The time off type id field is required.',
    ]);
    expect((await bank(user, { time_off_type_id: sickId, hours: 0, admin_id: adminId })).body.error_message).toEqual([
      'The hours must not be zero.',
    ]);
    expect((await bank(999999, { time_off_type_id: sickId, hours: 1, admin_id: adminId })).status).toBe(404);
    await expectNotFoundForOtherOrg(other, 'POST', `/users/${user}/timeoff/accrual/bank`, {
      time_off_type_id: sickId,
      hours: 1,
      admin_id: adminId,
    });
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'POST', `/users/${adminId}/timeoff/accrual/bank`, {
      time_off_type_id: sickId,
      hours: 1,
      admin_id: adminId,
    });
  });
});

describe('time off and the bank', () => {
  const timeOff = (user: number, extra: Record<string, unknown> = {}) =>
    postTimeOff(
      org,
      { userId: user, adminId, start: '2030-03-02 07:00:00', end: '2030-03-03 07:00:00', typeId: vacationId },
      extra,
    );
  const balance = async (user: number) =>
    (await org.get(`/users/${user}/timeoff/accrual/bank`)).body.find(
      (b: { time_off_type: { id: string } }) => b.time_off_type.id === String(vacationId),
    )?.hours;

  it('approval deducts the hours; deleting the entry gives them back', async () => {
    const user = await org.createUser();
    await bank(user, { time_off_type_id: vacationId, hours: 40, admin_id: adminId });
    const id = (await timeOff(user)).body.id;
    expect(await balance(user)).toBe(40);
    expect((await org.post(`/time_offs/${id}/approve`)).status).toBe(200);
    expect(await balance(user)).toBe(16);
    expect((await org.del(`/time_offs/${id}`)).status).toBe(200);
    expect(await balance(user)).toBe(40);
    const kinds = (await org.get(`/users/${user}/timeoff/accrual/transactions`)).body.map(
      (row: { kind: string; hours: number; time_off_id: number | null }) => [row.kind, row.hours, row.time_off_id],
    );
    expect(kinds).toEqual([
      ['manual', 40, null],
      ['time_off', -24, id],
      ['time_off_restored', 24, id],
    ]);
  });

  it('a short balance blocks approval (422) and creation as approved', async () => {
    const user = await org.createUser();
    await bank(user, { time_off_type_id: vacationId, hours: 30, admin_id: adminId });
    const id = (await timeOff(user)).body.id;
    await bank(user, { time_off_type_id: vacationId, hours: -20, admin_id: adminId });
    const approve = await org.post(`/time_offs/${id}/approve`);
    expect(approve).toBeInvalid(['The Vacation bank holds 10 hours, fewer than the 24 hours requested.']);
    expect((await org.get(`/time_offs/${id}`)).body.items[0].status).toBe(0);
    expect((await timeOff(user, { status: 1 })).status).toBe(422);
    expect(await balance(user)).toBe(10);
  });

  it('lets approvals of a type that allows negative balances overdraw the bank', async () => {
    const lenient = (await org.post('/time_off_types', { label: 'Lenient', allow_negative: true })).body.id;
    const user = await org.createUser();
    await bank(user, { time_off_type_id: lenient, hours: 8, admin_id: adminId });
    expect((await timeOff(user, { status: 1, time_off_type_id: lenient })).status).toBe(201);
    const balances = (await org.get(`/users/${user}/timeoff/accrual/bank`)).body;
    expect(balances).toEqual([{ hours: -16, time_off_type: { id: String(lenient), name: 'Lenient' } }]);
  });

  it('leaves users without a bank for the type alone', async () => {
    const user = await org.createUser();
    expect((await timeOff(user, { status: 1 })).status).toBe(201);
    expect((await org.get(`/users/${user}/timeoff/accrual/bank`)).body).toEqual([]);
  });
});

describe('accrual profiles and tracks (extension)', () => {
  it('lists, changes and deletes profiles', async () => {
    const fresh = await server.newOrg();
    const type = (await fresh.post('/time_off_types', { label: 'Sick' })).body.id;
    const id = await createProfile(fresh, 'Base', [{ time_off_type_id: type, method: 'none' }]);
    expect((await fresh.get('/accrual_profiles')).body).toEqual([
      {
        id,
        name: 'Base',
        rules: [
          {
            time_off_type_id: type,
            method: 'none',
            hours: 0,
            interval: 1,
            max_hours: null,
            accrual_type: 'No automatic accrual',
          },
        ],
      },
    ]);
    const patch = await fresh.patch(`/accrual_profiles/${id}`, {
      name: 'Base 2',
      rules: [{ time_off_type_id: type, method: 'month', hours: 2.5 }],
    });
    expect(patch).toSucceed(200, 'Accrual profile updated successfully.', {
      id,
    });
    expect((await fresh.get('/accrual_profiles')).body[0]).toMatchObject({
      name: 'Base 2',
      rules: [{ accrual_type: 'Accrues 2.5 hours every month' }],
    });
    await expectNotFoundForOtherOrg(other, 'PATCH', `/accrual_profiles/${id}`, { name: 'x' });
    expect(await fresh.del(`/accrual_profiles/${id}`)).toSucceed(200, 'Accrual profile removed successfully.');
    expect((await fresh.get('/accrual_profiles')).body).toEqual([]);
  });

  it('validates rules: known types, one rule per type, interval where needed', async () => {
    const cases: Array<[Array<Record<string, unknown>>, string]> = [
      [[{ time_off_type_id: 999999, method: 'none' }], 'The selected time off type id is invalid.'],
      [
        [
          { time_off_type_id: sickId, method: 'none' },
          { time_off_type_id: sickId, method: 'none' },
        ],
        'A profile holds one rule per time off type.',
      ],
      [[{ time_off_type_id: sickId, method: 'days', hours: 2 }], 'The interval field is required for the days method.'],
      [[{ time_off_type_id: sickId, method: 'week' }], 'The hours field is required for the week method.'],
    ];
    for (const [rules, message] of cases) {
      const response = await org.post('/accrual_profiles', { name: 'Bad', rules });
      expect(response).toBeInvalid([message]);
    }
    expect(
      (await org.post('/accrual_profiles', { name: 'Bad', rules: [{ time_off_type_id: sickId, method: 'fortnight' }] }))
        .status,
    ).toBe(422);
  });

  it('lists, changes and deletes tracks', async () => {
    const fresh = await server.newOrg();
    const profile = await createProfile(fresh, 'P', []);
    const id = (await fresh.post('/accrual_tracks', { name: 'T', steps: [{ profile_id: profile, from_years: 0 }] }))
      .body.id;
    expect((await fresh.get('/accrual_tracks')).body).toEqual([
      { id, name: 'T', steps: [{ from_years: 0, profile_id: profile }] },
    ]);
    expect(
      (await fresh.post('/accrual_tracks', { name: 'Bad', steps: [{ profile_id: 999999, from_years: 0 }] })).body
        .error_message,
    ).toEqual(['The selected profile id is invalid.']);
    expect((await fresh.patch(`/accrual_tracks/${id}`, { steps: [] })).status).toBe(200);
    expect((await fresh.get('/accrual_tracks')).body).toEqual([{ id, name: 'T', steps: [] }]);
    expect((await fresh.del(`/accrual_tracks/${id}`)).status).toBe(200);
    expect((await fresh.del(`/accrual_tracks/${id}`)).status).toBe(404);
  });
});
