import { describe, expect, it } from 'vitest';
import { useOrgs } from '../../../test/helpers/server.js';
import { createAssignment, workTypeId } from '../rotations/test-fixtures.js';
import { createShift } from '../shifts/test-fixtures.js';

/** Editing an open trade before it starts (PATCH /trades/{id} with action "edit", extension), through HTTP. */
const { org } = await useOrgs();
const adminId = await org.createUser({ first_name: 'Steve', last_name: 'Boss', role: 'Admin' });
const assignment = await createAssignment(org, {
  name: 'Station 9',
  start: '2020-01-01 07:00:00',
  end: '2020-01-02 07:00:00',
});
const regular = await workTypeId(org);

async function shift(userId: number, start: string, end: string) {
  await createShift(org, assignment, userId, start, end, { work_type_id: regular });
}

async function requestTrade(requester: number, start: string, end: string, extra = {}) {
  const response = await org.post('/trades', {
    requesting_user: requester,
    approving_user_id: adminId,
    start,
    end,
    ...extra,
  });
  expect(response.status, response.text).toBe(201);
  return response.body.id as number;
}

describe('PATCH /trades/{id} with action "edit"', () => {
  it('moves an open trade to new hours, keeps its status, and logs the terms before and after', async () => {
    const ann = await org.createUser({ first_name: 'Ann', last_name: 'Ash' });
    const id = await requestTrade(ann, '2031-08-01 07:00:00', '2031-08-02 07:00:00', { notes: 'first' });
    const response = await org.patch(`/trades/${id}`, {
      action: 'edit',
      start: '2031-08-04 07:00:00',
      end: '2031-08-04 19:00:00',
      notes: 'moved',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.trade_status).toBe('pending');
    const trade = (await org.get(`/trades/${id}`)).body;
    expect(trade).toMatchObject({ status: 'pending', notes: 'moved' });
    expect(trade.start.slice(0, 19)).toBe('2031-08-04T07:00:00');
    expect(trade.end.slice(0, 19)).toBe('2031-08-04T19:00:00');
    const log = (await org.get('/logs')).body.data[0];
    expect(log.event_description).toBe(
      `Ann Ash edited trade #${id} of Ann Ash (2031-08-01 07:00:00 to 2031-08-02 07:00:00); ` +
        'now 2031-08-04 07:00:00 to 2031-08-04 19:00:00.',
    );
  });

  it('checks the new hours as a new trade: inside the shift of the requester, a start still to come', async () => {
    const bob = await org.createUser({ first_name: 'Bob', last_name: 'Birch' });
    await shift(bob, '2031-08-10 07:00:00', '2031-08-11 07:00:00');
    const id = await requestTrade(bob, '2031-08-10 07:00:00', '2031-08-11 07:00:00');
    expect(
      await org.patch(`/trades/${id}`, { action: 'edit', start: '2031-08-10 06:00:00', end: '2031-08-10 19:00:00' }),
    ).toBeInvalid([
      'The start 2031-08-10 06:00:00 lies outside the shift the trade cuts: ' +
        'Bob Birch works 2031-08-10 07:00:00 to 2031-08-11 07:00:00.',
    ]);
    expect(
      await org.patch(`/trades/${id}`, { action: 'edit', start: '2020-08-10 07:00:00', end: '2020-08-11 07:00:00' }),
    ).toBeInvalid(['A trade cannot be moved to a start that has passed: 2020-08-10 07:00:00.']);
    expect((await org.get(`/trades/${id}`)).body.start.slice(0, 19)).toBe('2031-08-10T07:00:00');
  });

  it('refuses to edit a cancelled trade; a filled one is edited (its work moves back and again)', async () => {
    const [cy, di] = [await org.createUser(), await org.createUser()];
    const filled = await requestTrade(cy, '2031-08-20 07:00:00', '2031-08-21 07:00:00', {
      accepting_user_id: di,
      approve: true,
    });
    const edited = await org.patch(`/trades/${filled}`, { action: 'edit', notes: 'x' });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.trade_status).toBe('filled');
    const cancelled = await requestTrade(cy, '2031-08-24 07:00:00', '2031-08-25 07:00:00');
    expect((await org.patch(`/trades/${cancelled}`, { action: 'cancel' })).status).toBe(200);
    expect(await org.patch(`/trades/${cancelled}`, { action: 'edit', notes: 'x' })).toBeInvalid([
      `Trade #${cancelled} is cancelled.`,
    ]);
  });
});
