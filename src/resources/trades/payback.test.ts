import { describe, expect, it } from 'vitest';
import { expectAuthRequired } from '../../../test/helpers/common.js';
import { useOrgs } from '../../../test/helpers/server.js';
import { filledTrade } from './test-fixtures.js';

/** The payback ledger (GET /users/{user_id}/trade_balance), derived from filled trades, through HTTP. */
const { server, org, other } = await useOrgs();
const adminId = await org.createUser({ first_name: 'Steve', last_name: 'Boss', role: 'Admin' });
const ref = (id: number, name: string) => ({ id, name, href: `${server.url}/v1/users/${id}` });

/** A trade requested, accepted and approved in one request: filled. */
const tradeFilled = (requester: number, taker: number, start: string, end: string, extra = {}) =>
  filledTrade(org, { requester, taker, admin: adminId }, start, end, extra);

const balanceOf = async (userId: number) => {
  const response = await org.get(`/users/${userId}/trade_balance`);
  expect(response.status, response.text).toBe(200);
  return response.body;
};

describe('GET /users/{user_id}/trade_balance', () => {
  it('a 24 h trade, then a 12 h trade back, leaves 12 h owed, with the trades behind it', async () => {
    const ann = await org.createUser({ first_name: 'Ann', last_name: 'Ash' });
    const bob = await org.createUser({ first_name: 'Bob', last_name: 'Birch' });
    const first = await tradeFilled(ann, bob, '2031-04-01 07:00:00', '2031-04-02 07:00:00');
    expect(await balanceOf(ann)).toMatchObject([{ user: ref(bob, 'Bob Birch'), user_owes: 24, owes_user: 0 }]);
    const back = await tradeFilled(bob, ann, '2031-04-10 07:00:00', '2031-04-10 19:00:00');
    const trades = [
      {
        id: first,
        href: `${server.url}/v1/trades/${first}`,
        start: '2031-04-01 07:00:00',
        end: '2031-04-02 07:00:00',
        hours: 24,
        worked_by: ref(bob, 'Bob Birch'),
        worked_for: ref(ann, 'Ann Ash'),
      },
      {
        id: back,
        href: `${server.url}/v1/trades/${back}`,
        start: '2031-04-10 07:00:00',
        end: '2031-04-10 19:00:00',
        hours: 12,
        worked_by: ref(ann, 'Ann Ash'),
        worked_for: ref(bob, 'Bob Birch'),
      },
    ];
    expect(await balanceOf(ann)).toEqual([
      { user: ref(bob, 'Bob Birch'), user_owes: 12, owes_user: 0, worked_for_user: 24, user_worked: 12, trades },
    ]);
    expect(await balanceOf(bob)).toEqual([
      { user: ref(ann, 'Ann Ash'), user_owes: 0, owes_user: 12, worked_for_user: 12, user_worked: 24, trades },
    ]);
  });

  it('counts a swap both ways, only filled trades, per counterpart', async () => {
    const [cy, di, ed] = [
      await org.createUser({ first_name: 'Cy', last_name: 'Cole' }),
      await org.createUser({ first_name: 'Di', last_name: 'Dale' }),
      await org.createUser({ first_name: 'Ed', last_name: 'East' }),
    ];
    await tradeFilled(cy, di, '2031-05-01 07:00:00', '2031-05-02 07:00:00', {
      swap_start: '2031-05-04 07:00:00',
      swap_end: '2031-05-04 15:00:00',
    });
    // pending and cancelled trades owe nothing
    const pending = await org.post('/trades', {
      requesting_user: cy,
      accepting_user_id: ed,
      approving_user_id: adminId,
      start: '2031-05-06 07:00:00',
      end: '2031-05-07 07:00:00',
    });
    expect(pending.status).toBe(201);
    await tradeFilled(ed, cy, '2031-05-08 07:00:00', '2031-05-08 17:00:00');
    const balance = await balanceOf(cy);
    expect(balance).toMatchObject([
      { user: ref(di, 'Di Dale'), user_owes: 16, owes_user: 0, worked_for_user: 24, user_worked: 8 },
      { user: ref(ed, 'Ed East'), user_owes: 0, owes_user: 10, worked_for_user: 0, user_worked: 10 },
    ]);
    expect(await balanceOf(await org.createUser())).toEqual([]);
  });

  it('answers 404 for an unknown user or one of another organization, and requires a token', async () => {
    expect((await org.get('/users/999999/trade_balance')).status).toBe(404);
    const foreign = await other.createUser();
    expect((await org.get(`/users/${foreign}/trade_balance`)).status).toBe(404);
    await expectAuthRequired(server, 'GET', `/users/${adminId}/trade_balance`);
  });

  it('shows a web app member their own balance only', async () => {
    const member = await org.createUser({ first_name: 'Sam', last_name: 'Crew', username: 'sam_payback' });
    const colleague = await org.createUser({ first_name: 'Lee', last_name: 'Crew' });
    await tradeFilled(member, colleague, '2031-06-01 07:00:00', '2031-06-02 07:00:00');
    const session = await org.signIn('sam_payback');
    const own = await session.get(`/v1/users/${member}/trade_balance`);
    expect(own.status, own.text).toBe(200);
    expect(own.body).toMatchObject([{ user: ref(colleague, 'Lee Crew'), user_owes: 24 }]);
    const theirs = await session.get(`/v1/users/${colleague}/trade_balance`);
    expect(theirs.status).toBe(403);
  });
});
