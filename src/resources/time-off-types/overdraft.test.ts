import { describe, expect, it } from 'vitest';
import { useOrgs } from '../../../test/helpers/server.js';
import { postTimeOff } from '../time-offs/test-fixtures.js';

/** Overdraft rules per time off type (docs/time-off.md#overdraft-rules), through HTTP. */
const { org } = await useOrgs();
const adminId = await org.createUser({ first_name: 'Joe', last_name: 'Boss' });

async function newType(body: Record<string, unknown>): Promise<number> {
  const response = await org.post('/time_off_types', body);
  expect(response.status, response.text).toBe(201);
  return response.body.id;
}

const detail = async (id: number) => {
  const { allow_negative, overdraft, overdraft_hours } = (await org.get(`/time_off_types/${id}`)).body;
  return { allow_negative, overdraft, overdraft_hours };
};

const deposit = (user: number, type: number, hours: number) =>
  org.post(`/users/${user}/timeoff/accrual/bank`, { time_off_type_id: type, hours, admin_id: adminId });

const balanceOf = async (user: number, type: number) =>
  (await org.get(`/users/${user}/timeoff/accrual/bank`)).body.find(
    (b: { time_off_type: { id: string } }) => b.time_off_type.id === String(type),
  )?.hours;

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** A 24-hour day off from 07:00 on `date` (the user has no rotation: a day of 24 hours is charged). */
const request = (user: number, type: number, date: string, status = 0) =>
  postTimeOff(org, {
    userId: user,
    adminId,
    start: `${date} 07:00:00`,
    end: `${nextDay(date)} 07:00:00`,
    typeId: type,
    status,
  });

describe('the overdraft rule of a time off type', () => {
  it('is set by overdraft_hours or allow_negative and shown with the type', async () => {
    const id = await newType({ label: 'Comp Time', overdraft_hours: 16 });
    expect(await detail(id)).toEqual({ allow_negative: true, overdraft: 'limit', overdraft_hours: 16 });
    expect((await org.patch(`/time_off_types/${id}`, { overdraft_hours: 0 })).status).toBe(200);
    expect(await detail(id)).toEqual({ allow_negative: false, overdraft: 'refuse', overdraft_hours: 0 });
    expect((await org.patch(`/time_off_types/${id}`, { allow_negative: true })).status).toBe(200);
    expect(await detail(id)).toEqual({ allow_negative: true, overdraft: 'allow', overdraft_hours: null });
    expect((await org.patch(`/time_off_types/${id}`, { overdraft_hours: 8 })).status).toBe(200);
    expect((await org.patch(`/time_off_types/${id}`, { overdraft_hours: null })).status).toBe(200);
    expect(await detail(id)).toEqual({ allow_negative: true, overdraft: 'allow', overdraft_hours: null });
    expect(await detail(await newType({ label: 'Plain' }))).toEqual({
      allow_negative: false,
      overdraft: 'refuse',
      overdraft_hours: 0,
    });
  });

  it('refuses allow_negative and overdraft_hours that disagree, and negative hours', async () => {
    const contradiction = await org.post('/time_off_types', { label: 'X', allow_negative: false, overdraft_hours: 8 });
    expect(contradiction).toBeInvalid([
      'The allow negative field (false) contradicts the overdraft hours (8): 0 hours refuses any overdraft, ' +
        'other values allow one.',
    ]);
    expect((await org.post('/time_off_types', { label: 'Y', overdraft_hours: -1 })).status).toBe(422);
  });

  it('refuses a request that would take the bank below the limit, naming the balance and the hours', async () => {
    const type = await newType({ label: 'Comp Time', overdraft_hours: 16 });
    const user = await org.createUser();
    await deposit(user, type, 8);
    const first = await request(user, type, '2031-05-04');
    expect(first.status, first.text).toBe(201);
    const impact = (await org.get(`/time_offs/${first.body.id}/impact`)).body;
    expect(impact.bank).toEqual({
      time_off_type: { id: type, name: 'Comp Time' },
      hours: 24,
      balance: 8,
      balance_after: -16,
      floor: -16,
      allowed: true,
    });
    expect((await org.post(`/time_offs/${first.body.id}/approve`)).status).toBe(200);
    expect(await balanceOf(user, type)).toBe(-16);
    expect((await org.get(`/time_offs/${first.body.id}/impact`)).body.bank).toBeNull();
    expect(await request(user, type, '2031-05-06')).toBeInvalid([
      'The Comp Time bank holds -16 hours; the 24 hours requested would leave -40, ' +
        'below the -16 hours the type allows.',
    ]);
    expect(await request(user, type, '2031-05-06', 1)).toBeInvalid([
      'The Comp Time bank holds -16 hours; the 24 hours requested would leave -40, ' +
        'below the -16 hours the type allows.',
    ]);
    expect(await balanceOf(user, type)).toBe(-16);
  });

  it('refuses any overdraft by default, on request and on approval; the queue shows the refusal', async () => {
    const type = await newType({ label: 'Vacation' });
    const user = await org.createUser();
    await deposit(user, type, 10);
    expect(await request(user, type, '2031-06-01')).toBeInvalid([
      'The Vacation bank holds 10 hours, fewer than the 24 hours requested.',
    ]);
    await deposit(user, type, 20);
    const id = (await request(user, type, '2031-06-01')).body.id;
    await deposit(user, type, -20);
    const bank = (await org.get(`/time_offs/${id}/impact`)).body.bank;
    expect(bank).toMatchObject({ balance: 10, balance_after: -14, floor: 0, allowed: false });
    expect(await org.post(`/time_offs/${id}/approve`)).toBeInvalid([
      'The Vacation bank holds 10 hours, fewer than the 24 hours requested.',
    ]);
  });

  it('lets a type that allows any overdraft go as low as it is asked', async () => {
    const type = await newType({ label: 'Lenient', allow_negative: true });
    const user = await org.createUser();
    await deposit(user, type, 8);
    expect((await request(user, type, '2031-07-01', 1)).status).toBe(201);
    expect((await request(user, type, '2031-07-03', 1)).status).toBe(201);
    expect(await balanceOf(user, type)).toBe(-40);
    const pending = (await request(user, type, '2031-07-05')).body.id;
    expect((await org.get(`/time_offs/${pending}/impact`)).body.bank).toMatchObject({ floor: null, allowed: true });
  });
});

describe('50 parallel approvals that would overdraw a bank', () => {
  it('approve exactly those the rule allows, the rest 422, the bank at its floor', async () => {
    const type = await newType({ label: 'Race Comp', overdraft_hours: 24 });
    const user = await org.createUser();
    await deposit(user, type, 240);
    const ids: number[] = [];
    for (let day = 0; day < 50; day += 1) {
      const date = new Date(Date.UTC(2032, 3, 1 + day * 2)).toISOString().slice(0, 10);
      const response = await request(user, type, date);
      expect(response.status, response.text).toBe(201);
      ids.push(response.body.id);
    }
    const responses = await Promise.all(ids.map((id) => org.post(`/time_offs/${id}/approve`)));
    const statuses = responses.map((r) => r.status);
    // April to July: no DST change, every day 24 hours; (240 + 24) / 24 = 11 approvals fit above -24
    expect(statuses.filter((s) => s === 200)).toHaveLength(11);
    expect(statuses.filter((s) => s === 422)).toHaveLength(39);
    for (const refused of responses.filter((r) => r.status === 422))
      expect(refused.body.error_message[0]).toMatch(/^The Race Comp bank holds -?\d+ hours; the 24 hours requested/);
    expect(await balanceOf(user, type)).toBe(-24);
    const ledger = (await org.get(`/users/${user}/timeoff/accrual/transactions`)).body;
    expect(ledger.filter((row: { kind: string }) => row.kind === 'time_off')).toHaveLength(11);
  });
});
