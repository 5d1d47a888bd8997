import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { startWithOrgs, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { createAssignment } from '../rotations/test-fixtures.js';
import { callbacksForSchedule } from './day-items.js';
import { callbackBodyFor, sceneSteps, startingScene, type StartingScene } from './test-fixtures.js';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let adminId: number;

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);

let scene: StartingScene;
const { makeList, giveShift, crew, startCallback, respond } = sceneSteps(() => scene);
const callbackBody = (listId: number, overrides: Record<string, unknown> = {}) =>
  callbackBodyFor(scene, listId, overrides);

beforeAll(async () => {
  ({ server, org, other } = await startWithOrgs());
  scene = await startingScene(org);
  ({ adminId } = scene);
});
afterAll(() => server.close());

describe('POST /callbacks (extension)', () => {
  it('offers the list members in list order and answers with candidates and skipped', async () => {
    const members = await crew(3);
    const listId = await makeList('Firefighter', members);
    const response = await org.post('/callbacks', callbackBody(listId));
    expect(response).toSucceed(201, `Started callback #${response.body.id}`, {
      id: expect.any(Number),
      candidates: members.map((userId, index) => ({ user_id: userId, position: index + 1 })),
      skipped: [],
      vacancy: null,
    });
  });

  it('rejects an unknown list, admin, assignment or work type and an end before the start', async () => {
    const listId = await makeList('Validation list', []);
    const foreignList = await makeList('Foreign list', [], {}, other);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ list_id: foreignList }, 'The selected list id is invalid.'],
      [{ initiated_by: 999_999 }, 'The selected initiated by is invalid.'],
      [{ work_type_id: 999_999 }, 'The selected work type id is invalid.'],
      [{ end: '2032-03-10 08:00:00' }, 'The end must be after the start.'],
      [
        { deadline: 'soon' },
        'The deadline must be a date and time such as 2026-03-08 07:00:00 (or with its offset: ' +
          '2026-03-08T07:00:00-06:00).',
      ],
    ];
    for (const [overrides, message] of cases) {
      const response = await org.post('/callbacks', callbackBody(listId, overrides));
      expect(response).toBeInvalid([message]);
    }
  });

  it('writes a system log entry and requires a token', async () => {
    const listId = await makeList('Logged list', []);
    const started = await startCallback(listId);
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe(
      `John Doe started callback #${started.id} on list Logged list for 2032-03-10 08:00:00 to 2032-03-10 ` +
        '20:00:00: 2 position(s), 0 candidate(s), 0 skipped.',
    );
    await expectAuthRequired(server, 'POST', '/callbacks', callbackBody(listId));
  });
});

describe('GET /callbacks/{id}', () => {
  it('returns the callback in the sample shape', async () => {
    const listId = await makeList('Firefighter', []);
    const started = await startCallback(listId, { deadline: '2035-01-01 10:00:00' });
    const response = await org.get(`/callbacks/${started.id}`);
    expect(response).toAnswer(200, {
      id: started.id,
      title: { id: listId, name: 'Firefighter' },
      initiated_by: { id: adminId, name: 'John Doe' },
      start: '2032-03-10 08:00:00',
      end: '2032-03-10 20:00:00',
      positions_to_fill: 2,
      scheduled_to: ISO,
      started_at: ISO,
      ended_at: null,
      deadline: '2035-01-01T10:00:00-06:00',
      status: 'active',
      // the one extension field (docs/extensions.md): the sample's fields are all there, unchanged
      assignment_id: null,
    });
  });

  it('answers 404 for a missing callback and another organization, 401 without a token', async () => {
    const listId = await makeList('Tenancy list', []);
    const started = await startCallback(listId);
    const missing = await org.get('/callbacks/999999');
    expect(missing).toBeNotFound('Callback');
    await expectNotFoundForOtherOrg(other, 'GET', `/callbacks/${started.id}`);
    await expectAuthRequired(server, 'GET', `/callbacks/${started.id}`);
  });
});

describe('GET /callbacks', () => {
  it('pages with offset links inside {data, pagination}', async () => {
    const pageOrg = await server.newOrg();
    const admin = await pageOrg.createUser();
    const listId = await makeList('Paged', [], {}, pageOrg);
    const ids: number[] = [];
    for (const day of ['01', '02', '03']) {
      const started = await startCallback(
        listId,
        { initiated_by: admin, start: `2032-05-${day} 08:00:00`, end: `2032-05-${day} 20:00:00` },
        pageOrg,
      );
      ids.push(started.id);
    }
    const first = await pageOrg.get('/callbacks', { query: { limit: 2 } });
    expect(first.status).toBe(200);
    expect(first.body.data.map((c: { id: number }) => c.id)).toEqual(ids.slice(0, 2));
    expect(first.body.pagination).toEqual({ prev: null, next: `${server.url}/v1/callbacks?limit=2&offset=2` });
    const second = await pageOrg.get('/callbacks', { query: { limit: 2, offset: 2 } });
    expect(second.body.data.map((c: { id: number }) => c.id)).toEqual([ids[2]]);
    expect(second.body.pagination).toEqual({ prev: `${server.url}/v1/callbacks?limit=2&offset=0`, next: null });
    // Pagination links carry `limit` (spec, Limits) even when the request left it out: 50.
    const unlimited = await pageOrg.get('/callbacks', { query: { offset: 1 } });
    expect(unlimited.body.data.map((c: { id: number }) => c.id)).toEqual(ids.slice(1));
    expect(unlimited.body.pagination).toEqual({ prev: `${server.url}/v1/callbacks?limit=50&offset=0`, next: null });
  });

  it('filters by start and end (overlap)', async () => {
    const pageOrg = await server.newOrg();
    const admin = await pageOrg.createUser();
    const listId = await makeList('Filtered', [], {}, pageOrg);
    const early = await startCallback(
      listId,
      { initiated_by: admin, start: '2032-06-01 08:00:00', end: '2032-06-01 20:00:00' },
      pageOrg,
    );
    const late = await startCallback(
      listId,
      { initiated_by: admin, start: '2032-07-01 08:00:00', end: '2032-07-01 20:00:00' },
      pageOrg,
    );
    const june = await pageOrg.get('/callbacks', {
      query: { start: '2032-06-01 00:00:00', end: '2032-06-30 00:00:00' },
    });
    expect(june.body).toEqual({
      data: [expect.objectContaining({ id: early.id })],
      pagination: { prev: null, next: null },
    });
    const july = await pageOrg.get('/callbacks', { query: { start: '2032-06-15 00:00:00' } });
    expect(july.body.data.map((c: { id: number }) => c.id)).toEqual([late.id]);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/callbacks');
  });
});

describe('GET /callbacks/{id}/users', () => {
  it('lists the contacted users with string ids and flags', async () => {
    const [first, second] = await crew(2, 'Contact');
    const listId = await makeList('Contact list', [first, second]);
    const started = await startCallback(listId);
    await respond(started.id, first, 'denied', {
      contact_method: 'Mobile App',
      contact_time: '2032-03-01 12:52:21',
      response_time: '2032-03-01 13:00:39',
    });
    await respond(started.id, second, 'no answer', {
      contact_method: 'Text (SMS)',
      contact_time: '2032-03-01 12:58:25',
    });
    const response = await org.get(`/callbacks/${started.id}/users`);
    expect(response).toAnswer(200, [
      {
        id: String(first),
        position: '1',
        status: 'denied',
        contact_method: 'Mobile App',
        contact_time: '2032-03-01 12:52:21',
        response_time: '2032-03-01 13:00:39',
        start_time: null,
        end_time: null,
        uses_opportunity: '1',
        do_not_disturb: '0',
        auto_accepted: '0',
      },
      {
        id: String(second),
        position: '2',
        status: 'no answer',
        contact_method: 'Text (SMS)',
        contact_time: '2032-03-01 12:58:25',
        response_time: null,
        start_time: null,
        end_time: null,
        uses_opportunity: '1',
        do_not_disturb: '0',
        auto_accepted: '0',
      },
    ]);
  });

  it('shows members not contacted yet as pending', async () => {
    const [member] = await crew(1, 'Pending');
    const listId = await makeList('Pending list', [member]);
    const started = await startCallback(listId);
    const response = await org.get(`/callbacks/${started.id}/users`);
    expect(response.body).toEqual([
      {
        id: String(member),
        position: '1',
        status: 'pending',
        contact_method: null,
        contact_time: null,
        response_time: null,
        start_time: null,
        end_time: null,
        uses_opportunity: '0',
        do_not_disturb: '0',
        auto_accepted: '0',
      },
    ]);
  });

  it('answers 404 for another organization and 401 without a token', async () => {
    const listId = await makeList('Users tenancy', []);
    const started = await startCallback(listId);
    await expectNotFoundForOtherOrg(other, 'GET', `/callbacks/${started.id}/users`);
    await expectAuthRequired(server, 'GET', `/callbacks/${started.id}/users`);
  });
});

describe('POST /callbacks/{id}/users (extension)', () => {
  it('fills the callback when positions_to_fill have accepted, then refuses more answers', async () => {
    const [a, b, c] = await crew(3, 'Fill');
    const listId = await makeList('Fill list', [a, b, c]);
    const started = await startCallback(listId, { positions_to_fill: 2 });
    const first = await respond(started.id, a, 'accepted');
    expect(first).toSucceed(200, 'Recorded Fill Member1: accepted', {
      id: started.id,
      callback_status: 'active',
      shift_id: null,
    });
    const second = await respond(started.id, b, 'accepted');
    expect(second.body.callback_status).toBe('filled');
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe(
      `Fill Member2 accepted callback #${started.id} (2032-03-10 08:00:00 to 2032-03-10 20:00:00); the ` +
        'callback is filled.',
    );
    const detail = await org.get(`/callbacks/${started.id}`);
    expect(detail.body).toMatchObject({ status: 'filled', ended_at: ISO });
    const late = await respond(started.id, c, 'accepted');
    expect(late).toBeInvalid([`Callback #${started.id} is filled.`]);
  });

  it('refuses a user who is not a candidate and a user who already accepted', async () => {
    const [a, b] = await crew(2, 'Refuse');
    const listId = await makeList('Refuse list', [a]);
    const started = await startCallback(listId, { positions_to_fill: 2 });
    const outsider = await respond(started.id, b, 'accepted');
    expect(outsider.status).toBe(422);
    expect(outsider.body.error_message).toEqual([`User #${b} is not on the contact list of callback #${started.id}.`]);
    await respond(started.id, a, 'accepted');
    const twice = await respond(started.id, a, 'denied');
    expect(twice.status).toBe(422);
    expect(twice.body.error_message).toEqual([`User #${a} has already accepted callback #${started.id}.`]);
  });

  it('refuses an acceptance from a candidate who took on overlapping work since the callback started', async () => {
    const [member] = await crew(1, 'Since');
    const listId = await makeList('Since list', [member]);
    const started = await startCallback(listId);
    await giveShift(member, '2032-03-10 18:00:00', '2032-03-11 06:00:00');
    const response = await respond(started.id, member, 'accepted');
    expect(response).toBeInvalid([
      `Since Member1 can no longer take callback #${started.id}: already working 2032-03-10 18:00–06:00 on Engine 3.`,
    ]);
  });

  it('accepts part of the callback within its span only', async () => {
    const [a] = await crew(1, 'Part');
    const listId = await makeList('Part list', [a]);
    const started = await startCallback(listId);
    const outside = await respond(started.id, a, 'accepted', { start_time: '2032-03-10 06:00:00' });
    expect(outside.status).toBe(422);
    const inside = await respond(started.id, a, 'accepted', { start_time: '2032-03-10 12:00:00' });
    expect(inside.status).toBe(200);
    const users = await org.get(`/callbacks/${started.id}/users`);
    expect(users.body[0]).toMatchObject({ status: 'accepted', start_time: '2032-03-10 12:00:00', end_time: null });
  });

  it('lets exactly 3 of 10 parallel acceptances through for 3 positions', async () => {
    const members = await crew(10, 'Race');
    const listId = await makeList('Race list', members);
    const started = await startCallback(listId, { positions_to_fill: 3 });
    const responses = await Promise.all(members.map((userId) => respond(started.id, userId, 'accepted')));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(3);
    expect(responses.filter((r) => r.status === 422)).toHaveLength(7);
    const users = await org.get(`/callbacks/${started.id}/users`);
    expect(users.body.filter((u: { status: string }) => u.status === 'accepted')).toHaveLength(3);
    expect((await org.get(`/callbacks/${started.id}`)).body.status).toBe('filled');
  });

  it('after the deadline: partially filled or not filled, ended at the deadline, closed to answers', async () => {
    const [a, b] = await crew(2, 'Deadline');
    const listId = await makeList('Deadline list', [a, b]);
    const soon = new Date(Date.now() + 1500).toISOString();
    const partial = await startCallback(listId, { deadline: soon });
    const none = await startCallback(listId, {
      deadline: soon,
      start: '2032-03-11 08:00:00',
      end: '2032-03-11 20:00:00',
    });
    await respond(partial.id, a, 'accepted');
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await org.get(`/callbacks/${partial.id}`)).body).toMatchObject({
      status: 'partially filled',
      ended_at: ISO,
    });
    expect((await org.get(`/callbacks/${none.id}`)).body.status).toBe('not filled');
    const late = await respond(none.id, b, 'accepted');
    expect(late.status).toBe(422);
    expect(late.body.error_message).toEqual([`Callback #${none.id} is not filled.`]);

    const schedule = await callbacksForSchedule(
      server.app.db,
      { auth: { orgId: org.orgId } as never, baseUrl: server.url },
      '2032-03-10 00:00:00',
      '2032-03-12 00:00:00',
    );
    const listed = schedule.filter((item) => item.id === partial.id || item.id === none.id);
    expect(listed).toEqual([
      {
        date: '2032-03-10',
        id: partial.id,
        href: `${server.url}/v1/callbacks/${partial.id}`,
        start: '2032-03-10 08:00:00',
        end: '2032-03-10 20:00:00',
        minimum_staffing: 2,
        records: [
          {
            id: expect.any(Number),
            user: { id: a, href: `${server.url}/v1/users/${a}`, name: 'Deadline Member1' },
            start: '2032-03-10 08:00:00',
            end: '2032-03-10 20:00:00',
            work_site: null,
          },
        ],
        title: { id: listId, href: `${server.url}/v1/titles/${listId}`, name: 'Deadline list' },
      },
    ]);
  });

  it('answers 404 for another organization and 401 without a token', async () => {
    const listId = await makeList('Respond tenancy', []);
    const started = await startCallback(listId);
    await expectNotFoundForOtherOrg(other, 'POST', `/callbacks/${started.id}/users`, {
      user_id: adminId,
      status: 'denied',
    });
    await expectAuthRequired(server, 'POST', `/callbacks/${started.id}/users`, { user_id: adminId, status: 'denied' });
  });
});

describe('GET /schedule (day.callbacks)', () => {
  it('runs a callback end to end: list order, limits respected, the filled callback on its day', async () => {
    const [overLimit, first, second, third] = await crew(4, 'E2E');
    await giveShift(overLimit, '2032-08-02 08:00:00', '2032-08-03 08:00:00');
    const listId = await makeList('E2E list', [overLimit, first, second, third], { weekly_limit: 30 });
    const started = await startCallback(listId, {
      start: '2032-08-04 08:00:00',
      end: '2032-08-04 20:00:00',
      positions_to_fill: 2,
    });
    expect(started.candidates.map((c) => c.user_id)).toEqual([first, second, third]);
    expect(started.skipped).toEqual([{ user_id: overLimit, reason: "over the list's weekly limit: 36 of 30 h" }]);
    const period = { start: '2032-08-04 00:00:00', end: '2032-08-05 00:00:00' };
    await respond(started.id, first, 'accepted');
    expect((await org.get('/schedule', { query: period })).body.days[0].callbacks).toEqual([]);
    await respond(started.id, second, 'denied');
    await respond(started.id, third, 'accepted');
    const schedule = await org.get('/schedule', { query: period });
    expect(schedule.status).toBe(200);
    const record = (userId: number, name: string) => ({
      id: expect.any(Number),
      user: { id: userId, href: `${server.url}/v1/users/${userId}`, name },
      start: '2032-08-04 08:00:00',
      end: '2032-08-04 20:00:00',
      work_site: null,
    });
    expect(schedule.body.days[0].callbacks).toEqual([
      expect.objectContaining({
        id: started.id,
        href: `${server.url}/v1/callbacks/${started.id}`,
        start: '2032-08-04 08:00:00',
        end: '2032-08-04 20:00:00',
        minimum_staffing: 2,
        records: [record(first, 'E2E Member2'), record(third, 'E2E Member4')],
        title: { id: listId, href: `${server.url}/v1/titles/${listId}`, name: 'E2E list' },
      }),
    ]);
  });
});

describe('callbacks placed on an assignment', () => {
  it('gives each accepting user a shift on the assignment with from_callback, shown under the assignment', async () => {
    const [a, b] = await crew(2, 'Placed');
    const stationId = await createAssignment(org, {
      name: 'Ladder 2',
      start: '2032-09-01 08:00:00',
      end: '2032-09-01 20:00:00',
    });
    const listId = await makeList('Placed list', [a, b]);
    const started = await startCallback(listId, {
      start: '2032-09-01 08:00:00',
      end: '2032-09-01 20:00:00',
      positions_to_fill: 1,
      assignment_id: stationId,
    });
    // the callback names its seat's assignment (an extension field), in the listing and by id
    expect((await org.get(`/callbacks/${started.id}`)).body.assignment_id).toBe(stationId);
    const listed = await org.get('/callbacks', { query: { start: '2032-09-01 00:00:00', end: '2032-09-01 23:59:59' } });
    expect(listed.body.data.find((c: { id: number }) => c.id === started.id)?.assignment_id).toBe(stationId);
    const accepted = await respond(started.id, a, 'accepted');
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ callback_status: 'filled', shift_id: expect.any(Number) });
    const shift = await org.get(`/shifts/${accepted.body.shift_id}`);
    expect(shift.body).toMatchObject({
      assignment_id: stationId,
      start: '2032-09-01 08:00:00',
      end: '2032-09-01 20:00:00',
      from_callback: started.id,
      traded_with: null,
    });
    const schedule = await org.get('/schedule', {
      query: { start: '2032-09-01 00:00:00', end: '2032-09-02 00:00:00' },
    });
    const day = schedule.body.days[0];
    expect(day.callbacks).toEqual([]);
    const ladder = day.assignments.find((item: { id: number }) => item.id === stationId);
    expect(ladder.shifts).toEqual([
      expect.objectContaining({ id: accepted.body.shift_id, user: expect.objectContaining({ id: a }) }),
    ]);
  });

  it('rejects an unknown assignment', async () => {
    const listId = await makeList('Placed invalid', []);
    const response = await org.post('/callbacks', callbackBody(listId, { assignment_id: 999_999 }));
    expect(response).toBeInvalid(['The selected assignment id is invalid.']);
  });
});

describe('POST /callbacks/{id}/cancel (extension)', () => {
  it('cancels an active callback and refuses further answers', async () => {
    const [a] = await crew(1, 'Cancel');
    const listId = await makeList('Cancel list', [a]);
    const started = await startCallback(listId);
    // a callback not placed on an assignment names none
    expect((await org.get(`/callbacks/${started.id}`)).body.assignment_id).toBeNull();
    const response = await org.post(`/callbacks/${started.id}/cancel`, { admin_id: adminId });
    expect(response).toSucceed(200, `Cancelled callback #${started.id}`);
    expect((await org.get(`/callbacks/${started.id}`)).body).toMatchObject({ status: 'cancelled', ended_at: ISO });
    const again = await org.post(`/callbacks/${started.id}/cancel`, { admin_id: adminId });
    expect(again.status).toBe(422);
    expect(again.body.error_message).toEqual([`Callback #${started.id} is cancelled.`]);
  });

  it('answers 404 for another organization and 401 without a token', async () => {
    const listId = await makeList('Cancel tenancy', []);
    const started = await startCallback(listId);
    await expectNotFoundForOtherOrg(other, 'POST', `/callbacks/${started.id}/cancel`, { admin_id: adminId });
    await expectAuthRequired(server, 'POST', `/callbacks/${started.id}/cancel`, { admin_id: adminId });
  });
});
