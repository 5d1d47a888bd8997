import { describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';

/** The department's trade limits (GET/PATCH /trade_limits), through HTTP. */
const { server, org } = await useOrgs();
const adminId = await org.createUser({ first_name: 'Steve', last_name: 'Boss', role: 'Admin' });
// two-week work periods from Sunday 2031-01-05 07:00
expect((await org.patch('/work_period', { days: 14, start: '2031-01-05 07:00:00' })).status).toBe(200);

const setLimits = async (body: Record<string, unknown>) => {
  const response = await org.patch('/trade_limits', body);
  expect(response.status, response.text).toBe(200);
  return response.body.trade_limits;
};

const trade = (requester: number, start: string, end: string, extra: Record<string, unknown> = {}) =>
  org.post('/trades', { requesting_user: requester, approving_user_id: adminId, start, end, ...extra });

const day = (date: string) => ({ start: `${date} 07:00:00`, end: `${date} 19:00:00` });

describe('GET and PATCH /trade_limits', () => {
  it('has no limits until set; changes only the fields sent; null removes one', async () => {
    expect((await org.get('/trade_limits')).body).toEqual({
      trades_per_period: null,
      owed_hours: null,
      period: { days: 14, start: '2031-01-05 07:00:00' },
    });
    expect(await setLimits({ trades_per_period: 3 })).toMatchObject({ trades_per_period: 3, owed_hours: null });
    expect(await setLimits({ owed_hours: 48 })).toMatchObject({ trades_per_period: 3, owed_hours: 48 });
    expect(await setLimits({ trades_per_period: null, owed_hours: null })).toMatchObject({
      trades_per_period: null,
      owed_hours: null,
    });
    const bad = await org.patch('/trade_limits', { trades_per_period: -1, owed_hours: 'many' });
    expect(bad.status).toBe(422);
    expect(bad.body.error_message).toHaveLength(2);
    await expectAuthRequired(server, 'GET', '/trade_limits');
  });
});

describe('trades per person per work period', () => {
  it('refuses the trade past the limit, naming the limit and count; a new period and cancels free it', async () => {
    await setLimits({ trades_per_period: 2, owed_hours: null });
    const ann = await org.createUser({ first_name: 'Ann', last_name: 'Ash' });
    const bob = await org.createUser({ first_name: 'Bob', last_name: 'Birch' });
    const first = await trade(ann, day('2031-02-02').start, day('2031-02-02').end);
    expect(first.status, first.text).toBe(201);
    expect((await trade(ann, day('2031-02-05').start, day('2031-02-05').end)).status).toBe(201);
    expect(await trade(ann, day('2031-02-10').start, day('2031-02-10').end)).toBeInvalid([
      'The trade limit of 2 per person per work period is reached: Ann Ash has 2 trades in the period ' +
        '2031-02-02 to 2031-02-16.',
    ]);
    // the next work period starts 2031-02-16 07:00
    expect((await trade(ann, day('2031-02-16').start, day('2031-02-16').end)).status).toBe(201);
    expect((await org.patch(`/trades/${first.body.id}`, { action: 'cancel' })).status).toBe(200);
    expect((await trade(ann, day('2031-02-10').start, day('2031-02-10').end)).status).toBe(201);
    // a taker at the limit may not accept another trade of the period
    await trade(bob, day('2031-02-03').start, day('2031-02-03').end);
    await trade(bob, day('2031-02-04').start, day('2031-02-04').end);
    const cy = await org.createUser({ first_name: 'Cy', last_name: 'Cole' });
    const offered = await trade(cy, day('2031-02-06').start, day('2031-02-06').end);
    expect(await org.patch(`/trades/${offered.body.id}`, { action: 'accept', user_id: bob })).toBeInvalid([
      'The trade limit of 2 per person per work period is reached: Bob Birch has 2 trades in the period ' +
        '2031-02-02 to 2031-02-16.',
    ]);
    expect((await org.get(`/trades/${offered.body.id}`)).body.status).toBe('pending');
  });

  it('of 20 parallel requests for the last allowed trade, exactly one wins', async () => {
    await setLimits({ trades_per_period: 3, owed_hours: null });
    const dee = await org.createUser({ first_name: 'Dee', last_name: 'Dunn' });
    expect((await trade(dee, day('2031-03-02').start, day('2031-03-02').end)).status).toBe(201);
    expect((await trade(dee, day('2031-03-03').start, day('2031-03-03').end)).status).toBe(201);
    const dates = Array.from({ length: 20 }, (_, i) => `2031-03-${String(4 + (i % 10)).padStart(2, '0')}`);
    const responses = await Promise.all(
      dates.map((date, i) =>
        trade(dee, `${date} ${i < 10 ? '07' : '19'}:00:00`, `${date} ${i < 10 ? '19' : '23'}:00:00`),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(19);
    const listed = (await org.get('/trades', { query: { user_id: dee } })).body;
    expect(listed).toHaveLength(3);
  });
});

describe('open owed hours per person', () => {
  it('refuses a trade leaving the person owing more than the limit; a trade back is always allowed', async () => {
    await setLimits({ trades_per_period: null, owed_hours: 24 });
    const [eve, fay, gus] = [
      await org.createUser({ first_name: 'Eve', last_name: 'Eng' }),
      await org.createUser({ first_name: 'Fay', last_name: 'Fox' }),
      await org.createUser({ first_name: 'Gus', last_name: 'Gray' }),
    ];
    const filled = await trade(eve, '2031-04-06 07:00:00', '2031-04-07 07:00:00', {
      accepting_user_id: fay,
      approve: true,
    });
    expect(filled.status, filled.text).toBe(201);
    expect(await trade(eve, day('2031-04-09').start, day('2031-04-09').end, { accepting_user_id: gus })).toBeInvalid([
      'The limit of 24 owed hours on trades is reached: Eve Eng owes 24 hours and would owe 36 after this trade.',
    ]);
    // Fay asks Eve to work 12 h for her: Eve pays back, and may then owe 12 h more
    const back = await trade(fay, day('2031-04-10').start, day('2031-04-10').end, {
      accepting_user_id: eve,
      approve: true,
    });
    expect(back.status, back.text).toBe(201);
    const again = await trade(eve, day('2031-04-12').start, day('2031-04-12').end, {
      accepting_user_id: gus,
      approve: true,
    });
    expect(again.status, again.text).toBe(201);
    const balance = (await org.get(`/users/${eve}/trade_balance`)).body;
    expect(balance.map((c: { user_owes: number }) => c.user_owes)).toEqual([12, 12]);
  });
});
