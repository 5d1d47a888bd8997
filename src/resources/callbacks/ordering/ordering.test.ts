import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithOrgs, type TestOrg, type TestServer } from '../../../../test/helpers/server.js';
import { createAssignment, workTypeId as firstWorkTypeId } from '../../rotations/test-fixtures.js';
import { sceneSteps, startingScene, type StartingScene } from '../test-fixtures.js';
import { createTimeOff } from '../../time-offs/test-fixtures.js';

/**
 * Lists and ordering: who a callback offers, in which order (list order, seniority, rotating,
 * hours), and who it skips and why (time off, overlapping work, consecutive hours, hour limits).
 */

let server: TestServer;
let org: TestOrg;
let scene: StartingScene;

const { makeList, giveShift, crew, startCallback, respond } = sceneSteps(() => scene);

beforeAll(async () => {
  ({ server, org } = await startWithOrgs());
  scene = await startingScene(org);
});
afterAll(() => server.close());

describe('POST /callbacks: contact order and who is skipped', () => {
  it('skips members on approved time off unless its type is force_include', async () => {
    const [away, forced, free] = await crew(3, 'Leave');
    const listId = await makeList('Leave list', [away, forced, free]);
    const vacation = (await org.post('/time_off_types', { label: 'Vacation', work_code: 'VAC' })).body.id;
    const kelly = (await org.post('/time_off_types', { label: 'Kelly', work_code: 'KEL', force_include: true })).body
      .id;
    for (const [userId, typeId] of [
      [away, vacation],
      [forced, kelly],
    ] as const) {
      await createTimeOff(org, {
        userId,
        adminId: scene.adminId,
        start: '2032-03-10 00:00:00',
        end: '2032-03-11 00:00:00',
        typeId,
        status: 1,
      });
    }
    const started = await startCallback(listId);
    expect(started.candidates.map((c) => c.user_id)).toEqual([forced, free]);
    expect(started.skipped).toEqual([{ user_id: away, reason: 'on approved Vacation 2032-03-10 00:00–00:00' }]);
  });

  it('skips members already working overlapping hours', async () => {
    const [busy, free] = await crew(2, 'Busy');
    await giveShift(busy, '2032-03-10 07:00:00', '2032-03-10 09:00:00');
    const listId = await makeList('Busy list', [busy, free]);
    const started = await startCallback(listId);
    expect(started.candidates.map((c) => c.user_id)).toEqual([free]);
    expect(started.skipped).toEqual([{ user_id: busy, reason: 'already working 2032-03-10 07:00–09:00 on Engine 3' }]);
  });

  it('skips members over max consecutive hours, counting work that touches the callback', async () => {
    const [tired, rested] = await crew(2, 'Tired');
    await giveShift(tired, '2032-03-09 08:00:00', '2032-03-10 08:00:00');
    const listId = await makeList('Consecutive list', [tired, rested], { max_consecutive_hours: 24 });
    const started = await startCallback(listId);
    expect(started.candidates.map((c) => c.user_id)).toEqual([rested]);
    expect(started.skipped).toEqual([
      { user_id: tired, reason: "over the list's consecutive hours limit: 36 of 24 h" },
    ]);
  });

  it('skips members over the weekly, monthly or yearly limit (0 = no limit)', async () => {
    const [weekly, monthly, fine] = await crew(3, 'Limit');
    await giveShift(weekly, '2032-03-08 08:00:00', '2032-03-09 08:00:00');
    await giveShift(monthly, '2032-03-01 08:00:00', '2032-03-02 08:00:00');
    await giveShift(monthly, '2032-03-03 08:00:00', '2032-03-04 08:00:00');
    const listId = await makeList('Limit list', [weekly, monthly, fine], {
      weekly_limit: 30,
      monthly_limit: 56,
      yearly_limit: 0,
    });
    const started = await startCallback(listId);
    expect(started.candidates.map((c) => c.user_id)).toEqual([fine]);
    expect(started.skipped).toEqual([
      { user_id: weekly, reason: "over the list's weekly limit: 36 of 30 h" },
      { user_id: monthly, reason: "over the list's monthly limit: 60 of 56 h" },
    ]);
  });

  it('does not count hours of a work type excluded from callbacks toward the limits', async () => {
    const [member] = await crew(1, 'Excluded');
    const tradeType = await firstWorkTypeId(org, 'Trade');
    await giveShift(member, '2032-03-08 08:00:00', '2032-03-09 08:00:00', tradeType);
    const listId = await makeList('Excluded list', [member], { weekly_limit: 30 });
    const started = await startCallback(listId);
    expect(started.candidates.map((c) => c.user_id)).toEqual([member]);
  });

  it('does not count hours on an assignment that is not a work shift toward the limits', async () => {
    const [member] = await crew(1, 'Training');
    const training = await createAssignment(org, {
      name: 'Training',
      start: '2032-03-08 08:00:00',
      end: '2032-03-09 08:00:00',
      is_work_shift: false,
    });
    await giveShift(member, '2032-03-08 08:00:00', '2032-03-09 08:00:00', scene.workTypeId, training);
    const listId = await makeList('Training list', [member], { weekly_limit: 30 });
    const started = await startCallback(listId);
    expect(started.candidates.map((c) => c.user_id)).toEqual([member]);
  });

  it('orders by seniority (date of hire, then last name) when asked', async () => {
    const junior = await org.createUser({ first_name: 'Jo', last_name: 'Junior', date_of_hire: '2020-01-01' });
    const senior = await org.createUser({ first_name: 'Sam', last_name: 'Senior', date_of_hire: '2001-01-01' });
    const listId = await makeList('Seniority list', [junior, senior]);
    const started = await startCallback(listId, { ordering: 'seniority' });
    expect(started.candidates.map((c) => c.user_id)).toEqual([senior, junior]);
  });

  it("uses the list's own ordering when the body names none", async () => {
    const junior = await org.createUser({ first_name: 'Jo', last_name: 'Newer', date_of_hire: '2021-01-01' });
    const senior = await org.createUser({ first_name: 'Sam', last_name: 'Older', date_of_hire: '2002-01-01' });
    const listId = await makeList('Seniority by list', [junior, senior], { ordering: 'seniority' });
    const started = await startCallback(listId);
    expect(started.candidates.map((c) => c.user_id)).toEqual([senior, junior]);
  });

  it('rotating: a contacted member moves to the bottom of the next callback', async () => {
    const [first, second, third] = await crew(3, 'Rotate');
    const listId = await makeList('Rotating list', [first, second, third]);
    const callback = await startCallback(listId, { positions_to_fill: 1 });
    expect((await respond(callback.id, first, 'denied')).status).toBe(200);
    expect((await respond(callback.id, second, 'accepted')).status).toBe(200);
    const next = await startCallback(listId, { start: '2032-04-10 08:00:00', end: '2032-04-10 20:00:00' });
    expect(next.candidates.map((c) => c.user_id)).toEqual([third, first, second]);
  });

  it('hours: fewest accepted callback hours on the list first', async () => {
    const [worked, idle] = await crew(2, 'Hours');
    const listId = await makeList('Hours list', [worked, idle]);
    const callback = await startCallback(listId, {
      positions_to_fill: 1,
      start: '2032-02-10 08:00:00',
      end: '2032-02-10 20:00:00',
    });
    await respond(callback.id, worked, 'accepted');
    const next = await startCallback(listId, { ordering: 'hours' });
    expect(next.candidates.map((c) => c.user_id)).toEqual([idle, worked]);
  });
});
