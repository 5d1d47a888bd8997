import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuthRequired, expectNotFoundForOtherOrg } from '../../../test/helpers/common.js';
import { startWithOrgs, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import {
  createAssignment,
  createRotation,
  placeOnRotation,
  workTypeId as firstWorkTypeId,
} from '../rotations/test-fixtures.js';
import { createTimeOff } from '../time-offs/test-fixtures.js';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let adminId: number;
let workTypeId: number;
let assignmentId: number;

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
const strRef = (id: number, name: string) => ({ id: String(id), name, href: `${server.url}/v1/users/${id}` });

/** A one-off shift of the user: the work a trade moves. */
async function giveShift(
  userId: number,
  start: string,
  end: string,
  extra: Record<string, unknown> = {},
  as: TestOrg = org,
): Promise<number> {
  const response = await as.post('/shifts', {
    assignment_id: assignmentId,
    user_id: userId,
    date: start.slice(0, 10),
    start,
    end,
    work_type_id: workTypeId,
    ...extra,
  });
  if (response.status !== 201) throw new Error(`shift creation failed: ${response.text}`);
  return response.body.id as number;
}

async function shiftOwner(shiftId: number) {
  const shift = await org.get(`/shifts/${shiftId}`);
  return { user_id: shift.body.user.id, traded_with: shift.body.traded_with };
}

/** A qualifier of the catalog, by POST /qualifiers (which answers without the id) then GET /qualifiers. */
async function createQualifier(name: string, shortcode: string): Promise<number> {
  await org.post('/qualifiers', { name, shortcode });
  const list = await org.get('/qualifiers');
  return (list.body as Array<{ id: number; name: string }>).find((q) => q.name === name)!.id;
}

let dayCounter = 0;
/** A fresh 24-hour span in the future for each test, so tests do not share work. */
function nextSpan() {
  dayCounter += 2;
  const day = new Date(Date.UTC(2031, 0, 1 + dayCounter)).toISOString().slice(0, 10);
  const next = new Date(Date.UTC(2031, 0, 2 + dayCounter)).toISOString().slice(0, 10);
  return { start: `${day} 07:00:00`, end: `${next} 07:00:00` };
}

async function people() {
  const requester = await org.createUser({ first_name: 'Vincent', last_name: 'Ownbey' });
  const taker = await org.createUser({ first_name: 'Jack', last_name: 'Smith' });
  return { requester, taker };
}

async function createTrade(body: Record<string, unknown>) {
  const response = await org.post('/trades', { approving_user_id: adminId, ...body });
  expect(response.status, response.text).toBe(201);
  return response.body.id as number;
}

beforeAll(async () => {
  ({ server, org, other } = await startWithOrgs());
  adminId = await org.createUser({ first_name: 'Steve', last_name: 'Boss' });
  workTypeId = await firstWorkTypeId(org);
  assignmentId = await createAssignment(org, {
    name: 'Station 9',
    start: '2020-01-01 07:00:00',
    end: '2020-01-02 07:00:00',
  });
});
afterAll(() => server.close());

describe('POST /trades', () => {
  it('creates a pending trade when no one has accepted yet', async () => {
    const { requester } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const response = await org.post('/trades', { requesting_user: requester, ...span, approving_user_id: adminId });
    expect(response).toSucceed(201, `Trade #${response.body.id} requested`, {
      id: expect.any(Number),
      trade_status: 'pending',
    });
  });

  it('starts accepted when the accepting user is named, and accepts string ids as the sample sends them', async () => {
    const { requester, taker } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const response = await org.post('/trades', {
      requesting_user: String(requester),
      ...span,
      accepting_user_id: String(taker),
      approving_user_id: String(adminId),
    });
    expect(response.status).toBe(201);
    expect(response.body.trade_status).toBe('accepted');
  });

  it('takes the sample body, an array of trades: all are requested, or none when one is refused', async () => {
    const { requester, taker } = await people();
    const [first, second] = [nextSpan(), nextSpan()];
    await giveShift(requester, first.start, first.end);
    await giveShift(requester, second.start, second.end);
    const trade = (span: { start: string; end: string }) => ({
      requesting_user: String(requester),
      ...span,
      accepting_user_id: String(taker),
      approving_user_id: String(adminId),
    });
    const before = (await org.get('/trades')).body.length;
    const refused = await org.post('/trades', [trade(first), { ...trade(second), approving_user_id: 999999 }]);
    expect(refused.status).toBe(422);
    expect((await org.get('/trades')).body.length).toBe(before);

    const response = await org.post('/trades', [trade(first), trade(second)]);
    expect(response.status).toBe(201);
    const ids = response.body.ids as number[];
    expect(response).toSucceed(201, `Trades #${ids[0]}, #${ids[1]} requested`, {
      id: ids[0],
      trade_status: 'accepted',
      ids: [expect.any(Number), expect.any(Number)],
    });
    const listed = (await org.get('/trades')).body.map((t: { id: string }) => Number(t.id));
    expect(listed).toEqual(expect.arrayContaining(ids));
    expect((await org.post('/trades', [])).status).toBe(422);
  });

  it('accepts a trade of hours the requester has no scheduled work in; filling it moves nothing', async () => {
    const { requester, taker } = await people();
    const span = nextSpan();
    const response = await org.post('/trades', {
      requesting_user: requester,
      ...span,
      accepting_user_id: taker,
      approving_user_id: adminId,
    });
    expect(response.status).toBe(201);
    expect(response.body.trade_status).toBe('accepted');
    const approve = await org.patch(`/trades/${response.body.id}`, { action: 'approve' });
    expect(approve.body.trade_status).toBe('filled');
    expect((await org.get('/shifts', { query: { user_id: taker } })).body).toEqual([]);
  });

  it('refuses a span that cuts a shift and reaches outside it, or is off the minute', async () => {
    const { requester } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const day = span.start.slice(0, 10);
    const outside = { start: `${day} 05:00:00`, end: `${day} 19:00:00` };
    const response = await org.post('/trades', { requesting_user: requester, ...outside, approving_user_id: adminId });
    expect(response.status).toBe(422);
    expect(response.body.error_message).toEqual([
      `The start ${day} 05:00:00 lies outside the shift the trade cuts: ` +
        `Vincent Ownbey works ${span.start} to ${span.end}.`,
    ]);
    const seconds = { start: `${day} 07:00:30`, end: `${day} 07:30:00` };
    const off = await org.post('/trades', { requesting_user: requester, ...seconds, approving_user_id: adminId });
    expect(off.body.error_message).toEqual(['The start of a part-shift trade must be on the minute.']);
  });

  it('refuses an accepting user already scheduled in those hours', async () => {
    const { requester, taker } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    await giveShift(taker, span.start, span.end);
    const response = await org.post('/trades', {
      requesting_user: requester,
      ...span,
      accepting_user_id: taker,
      approving_user_id: adminId,
    });
    expect(response).toBeInvalid([
      `Jack Smith cannot take this trade: already working ${span.start.slice(0, 16)}–07:00 on Station 9.`,
    ]);
  });

  it('refuses an accepting user on approved time off', async () => {
    const { requester, taker } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const type = await org.post('/time_off_types', { label: 'Vacation', work_code: 'VAC' });
    await createTimeOff(org, {
      userId: taker,
      adminId,
      start: span.start,
      end: span.end,
      typeId: type.body.id,
      status: 1,
    });
    const response = await org.post('/trades', {
      requesting_user: requester,
      ...span,
      accepting_user_id: taker,
      approving_user_id: adminId,
    });
    expect(response.status).toBe(422);
    expect(response.body.error_message).toEqual([
      `Jack Smith cannot take this trade: on approved Vacation ${span.start.slice(0, 16)}–07:00.`,
    ]);
  });

  it("refuses an accepting user lacking the shift's qualifiers, and accepts one who holds them", async () => {
    const { requester, taker } = await people();
    const qualified = await org.createUser({ first_name: 'Quinn', last_name: 'Medic' });
    const span = nextSpan();
    const qualifierId = await createQualifier('Firefighters', 'FF-01');
    await giveShift(requester, span.start, span.end, { qualifiers: [qualifierId] });
    await org.post(`/users/${qualified}/qualifiers`, { id: qualifierId });
    const refused = await org.post('/trades', {
      requesting_user: requester,
      ...span,
      accepting_user_id: taker,
      approving_user_id: adminId,
    });
    expect(refused).toBeInvalid(['Jack Smith cannot take this trade: lacks FF-01.']);
    const accepted = await org.post('/trades', {
      requesting_user: requester,
      ...span,
      accepting_user_id: qualified,
      approving_user_id: adminId,
    });
    expect(accepted.status).toBe(201);
  });

  it('refuses the requester as accepting user, unknown users, and an end before the start', async () => {
    const { requester } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ accepting_user_id: requester }, 'The accepting user must differ from the requesting user.'],
      [{ accepting_user_id: 999_999 }, 'The selected accepting user id is invalid.'],
      [{ approving_user_id: 999_999 }, 'The selected approving user id is invalid.'],
      [{ requesting_user: 999_999 }, 'The selected requesting user is invalid.'],
      [{ end: span.start }, 'The end must be after the start.'],
    ];
    for (const [overrides, message] of cases) {
      const response = await org.post('/trades', {
        requesting_user: requester,
        ...span,
        approving_user_id: adminId,
        ...overrides,
      });
      expect(response).toBeInvalid([message]);
    }
  });

  it('requires requesting_user, start, end and approving_user_id', async () => {
    for (const field of ['requesting_user', 'start', 'end', 'approving_user_id']) {
      const body: Record<string, unknown> = { requesting_user: adminId, ...nextSpan(), approving_user_id: adminId };
      delete body[field];
      const response = await org.post('/trades', body);
      expect(response.status).toBe(422);
      expect(response.body.error_message).toEqual([`The ${field.replace(/_/g, ' ')} field is required.`]);
    }
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'POST', '/trades', { requesting_user: 1, ...nextSpan(), approving_user_id: 1 });
  });
});

describe('GET /trades', () => {
  it('lists trades in the sample shape: string ids, iso datetimes', async () => {
    const listOrg = await server.newOrg({ timezone: 'America/Los_Angeles' });
    const requester = await listOrg.createUser({ first_name: 'Vincent', last_name: 'Ownbey' });
    const admin = await listOrg.createUser();
    const station = await createAssignment(listOrg, { start: '2031-06-17 07:00:00', end: '2031-06-18 07:00:00' });
    await listOrg.post('/shifts', {
      assignment_id: station,
      user_id: requester,
      date: '2031-06-17',
      start: '2031-06-17 07:00:00',
      end: '2031-06-18 07:00:00',
      work_type_id: await firstWorkTypeId(listOrg),
    });
    const created = await listOrg.post('/trades', {
      requesting_user: requester,
      start: '2031-06-17 07:00:00',
      end: '2031-06-18 07:00:00',
      approving_user_id: admin,
    });
    const response = await listOrg.get('/trades');
    expect(response).toAnswer(200, [
      {
        id: String(created.body.id),
        requesting_user: { id: String(requester), name: 'Vincent Ownbey', href: `${server.url}/v1/users/${requester}` },
        request_date: ISO,
        start: '2031-06-17T07:00:00-07:00',
        end: '2031-06-18T07:00:00-07:00',
        swap_start: null,
        swap_end: null,
        status: 'pending',
      },
    ]);
  });

  it('shows an open trade whose start has passed as expired', async () => {
    const { requester } = await people();
    await giveShift(requester, '2020-01-01 07:00:00', '2020-01-02 07:00:00');
    const id = await createTrade({
      requesting_user: requester,
      start: '2020-01-01 07:00:00',
      end: '2020-01-02 07:00:00',
    });
    const trade = await org.get(`/trades/${id}`);
    expect(trade.body.status).toBe('expired');
    const accept = await org.patch(`/trades/${id}`, { action: 'accept', user_id: adminId });
    expect(accept.status).toBe(422);
    expect(accept.body.error_message).toEqual([`Trade #${id} is expired.`]);
  });

  it('requires a token', async () => {
    await expectAuthRequired(server, 'GET', '/trades');
  });
});

describe('PATCH /trades/{id}', () => {
  it('accepted then approved: filled, and the shift moves to the accepting user with traded_with', async () => {
    const { requester, taker } = await people();
    const span = nextSpan();
    const shiftId = await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span });
    const accept = await org.patch(`/trades/${id}`, { action: 'accept', user_id: taker });
    expect(accept).toSucceed(200, `Trade #${id} is accepted`, {
      id,
      trade_status: 'accepted',
    });
    expect(await shiftOwner(shiftId)).toEqual({ user_id: requester, traded_with: null });

    const approve = await org.patch(`/trades/${id}`, { action: 'approve', admin_id: adminId });
    expect(approve).toSucceed(200, `Trade #${id} is filled`, {
      id,
      trade_status: 'filled',
    });
    expect(await shiftOwner(shiftId)).toEqual({ user_id: taker, traded_with: requester });

    const detail = await org.get(`/trades/${id}`);
    expect(detail.body).toEqual({
      id: String(id),
      requesting_user: strRef(requester, 'Vincent Ownbey'),
      request_date: ISO,
      start: ISO,
      end: ISO,
      swap_start: null,
      swap_end: null,
      status: 'filled',
      accepting_user: strRef(taker, 'Jack Smith'),
      approving_user: strRef(adminId, 'Steve Boss'),
      approved_by: strRef(adminId, 'Steve Boss'),
      notes: null,
    });
  });

  it('answers 422 in words (not a 500) when the organization has no work types, and moves nothing', async () => {
    const bare = await server.newOrg();
    const admin = await bare.createUser({ first_name: 'Steve', last_name: 'Boss' });
    const requester = await bare.createUser({ first_name: 'Vincent', last_name: 'Ownbey' });
    const taker = await bare.createUser({ first_name: 'Jack', last_name: 'Smith' });
    for (const type of (await bare.get('/work_types')).body as Array<{ id: number }>) {
      expect((await bare.del(`/work_types/${type.id}`)).status).toBe(200);
    }
    const span = nextSpan();
    const created = await bare.post('/trades', { requesting_user: requester, approving_user_id: admin, ...span });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    expect((await bare.patch(`/trades/${id}`, { action: 'accept', user_id: taker })).status).toBe(200);

    const approve = await bare.patch(`/trades/${id}`, { action: 'approve', admin_id: admin });
    expect(approve).toBeInvalid(['The organization has no work types: add one first (POST /work_types).']);
    expect((await bare.get(`/trades/${id}`)).body.status).toBe('accepted');
  });

  it('pre-approved then accepted: filled at the acceptance (PUT works the same)', async () => {
    const { requester, taker } = await people();
    const span = nextSpan();
    const shiftId = await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span });
    const approve = await org.put(`/trades/${id}`, { action: 'approve' });
    expect(approve.body.trade_status).toBe('approved');
    const accept = await org.put(`/trades/${id}`, { action: 'accept', user_id: taker });
    expect(accept.status).toBe(200);
    expect(accept.body.trade_status).toBe('filled');
    expect(await shiftOwner(shiftId)).toEqual({ user_id: taker, traded_with: requester });
  });

  it('first acceptance wins', async () => {
    const { requester, taker } = await people();
    const late = await org.createUser();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span });
    await org.patch(`/trades/${id}`, { action: 'accept', user_id: taker });
    const second = await org.patch(`/trades/${id}`, { action: 'accept', user_id: late });
    expect(second).toBeInvalid([`Trade #${id} has already been accepted.`]);
  });

  it('lets exactly one of several parallel acceptances win', async () => {
    const { requester } = await people();
    const takers: number[] = [];
    for (let i = 0; i < 5; i += 1) takers.push(await org.createUser());
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span });
    const responses = await Promise.all(
      takers.map((userId) => org.patch(`/trades/${id}`, { action: 'accept', user_id: userId })),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 422)).toHaveLength(4);
    const users = await org.get(`/trades/${id}/users`);
    expect(users.body.filter((u: { status: string }) => u.status === 'accepted')).toHaveLength(1);
  });

  it('swaps: the accepting user gives back their own shift', async () => {
    const { requester, taker } = await people();
    const span = nextSpan();
    const swap = nextSpan();
    const mine = await giveShift(requester, span.start, span.end);
    const theirs = await giveShift(taker, swap.start, swap.end);
    const id = await createTrade({
      requesting_user: requester,
      ...span,
      accepting_user_id: taker,
      swap_start: swap.start,
      swap_end: swap.end,
    });
    const approve = await org.patch(`/trades/${id}`, { action: 'approve' });
    expect(approve.body.trade_status).toBe('filled');
    expect(await shiftOwner(mine)).toEqual({ user_id: taker, traded_with: requester });
    expect(await shiftOwner(theirs)).toEqual({ user_id: requester, traded_with: taker });
  });

  it('re-checks eligibility when the trade fills', async () => {
    const { requester, taker } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span, accepting_user_id: taker });
    await giveShift(taker, span.start, span.end);
    const approve = await org.patch(`/trades/${id}`, { action: 'approve' });
    expect(approve.status).toBe(422);
    expect(approve.body.error_message).toEqual([
      `Jack Smith cannot take this trade: already working ${span.start.slice(0, 16)}–07:00 on Station 9.`,
    ]);
    expect((await org.get(`/trades/${id}`)).body.status).toBe('accepted');
  });

  it('decline by the accepting user reopens the trade; deny and cancel close it', async () => {
    const { requester, taker } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span, accepting_user_id: taker });
    const decline = await org.patch(`/trades/${id}`, { action: 'decline', user_id: taker });
    expect(decline.body.trade_status).toBe('pending');
    const deny = await org.patch(`/trades/${id}`, { action: 'deny', admin_id: adminId });
    expect(deny.body.trade_status).toBe('denied');
    const again = await org.patch(`/trades/${id}`, { action: 'cancel' });
    expect(again.status).toBe(422);
    expect(again.body.error_message).toEqual([`Trade #${id} is denied.`]);

    const other = await createTrade({ requesting_user: requester, ...span });
    const cancel = await org.patch(`/trades/${other}`, { action: 'cancel', user_id: requester });
    expect(cancel.body.trade_status).toBe('cancelled');
  });

  it('requires user_id to accept, and a known action', async () => {
    const { requester } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span });
    const missing = await org.patch(`/trades/${id}`, { action: 'accept' });
    expect(missing.status).toBe(422);
    expect(missing.body.error_message).toEqual(['The user id field is required to accept a trade.']);
    const unknown = await org.patch(`/trades/${id}`, { action: 'steal' });
    expect(unknown.status).toBe(422);
  });

  it('writes system log entries naming the actor', async () => {
    const { requester, taker } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span, accepting_user_id: taker });
    await org.patch(`/trades/${id}`, { action: 'approve', admin_id: adminId });
    const logs = await org.get('/logs');
    expect(logs.body.data[0].event_description).toBe(
      `Steve Boss approved trade #${id} of Vincent Ownbey (${span.start} to ${span.end}); the trade is filled.`,
    );
    expect(logs.body.data[1].event_description).toBe(
      `Vincent Ownbey requested a trade of ${span.start} to ${span.end} with Jack Smith.`,
    );
  });

  it('answers 404 for a missing trade and another organization, 401 without a token', async () => {
    const { requester } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span });
    expect((await org.patch('/trades/999999', { action: 'cancel' })).status).toBe(404);
    await expectNotFoundForOtherOrg(other, 'PATCH', `/trades/${id}`, { action: 'cancel' });
    await expectNotFoundForOtherOrg(other, 'PUT', `/trades/${id}`, { action: 'cancel' });
    await expectAuthRequired(server, 'PATCH', `/trades/${id}`, { action: 'cancel' });
  });
});

describe('GET /schedule (day.trades)', () => {
  it('lists a filled trade on its day with requesting, accepting and approving users', async () => {
    const { requester, taker } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span, accepting_user_id: taker });
    const before = await org.get('/schedule', { query: { start: span.start, end: span.end } });
    expect(before.status).toBe(200);
    expect(before.body.days[0].trades).toEqual([]);
    await org.patch(`/trades/${id}`, { action: 'approve', admin_id: adminId });
    const schedule = await org.get('/schedule', { query: { start: span.start, end: span.end } });
    const ref = (userId: number, name: string) => ({ id: userId, href: `${server.url}/v1/users/${userId}`, name });
    expect(schedule.body.days[0].trades).toEqual([
      expect.objectContaining({
        id,
        href: `${server.url}/v1/trades/${id}`,
        start: span.start,
        end: span.end,
        requesting_user: ref(requester, 'Vincent Ownbey'),
        accepting_user: ref(taker, 'Jack Smith'),
        admin: ref(adminId, 'Steve Boss'),
      }),
    ]);
  });
});

describe('trades of rotation occurrences', () => {
  let stationId: number;
  let rotationId: number;

  beforeAll(async () => {
    stationId = await createAssignment(org, {
      name: 'Engine 1',
      start: '2031-03-01 07:00:00',
      end: '2031-03-02 07:00:00',
    });
    rotationId = await createRotation(org, { anchor_date: '2031-03-01' });
  });

  async function onCrewA(userId: number) {
    await placeOnRotation(org, {
      user_id: userId,
      rotation_id: rotationId,
      assignment_id: stationId,
      crew: 'A',
      start_date: '2031-03-01',
    });
  }

  it('moves the occurrence off the requester to the accepting user as a one-off shift with traded_with', async () => {
    const { requester, taker } = await people();
    await onCrewA(requester);
    const span = { start: '2031-03-04 07:00:00', end: '2031-03-05 07:00:00' };
    const id = await createTrade({ requesting_user: requester, ...span, accepting_user_id: taker });
    const approve = await org.patch(`/trades/${id}`, { action: 'approve', admin_id: adminId });
    expect(approve.status, approve.text).toBe(200);
    expect(approve.body.trade_status).toBe('filled');

    const schedule = await org.get('/schedule', {
      query: { start: '2031-03-04 00:00:00', end: '2031-03-05 00:00:00' },
    });
    const engine = schedule.body.days[0].assignments.find((a: { id: number }) => a.id === stationId);
    const shifts = engine.shifts.filter((shift: { user: { id: number } }) =>
      [requester, taker].includes(shift.user.id),
    );
    expect(shifts).toEqual([
      expect.objectContaining({
        recurring: false,
        start: span.start,
        end: span.end,
        user: expect.objectContaining({ id: taker }),
      }),
    ]);
    const takerShifts = await org.get('/shifts', { query: { user_id: taker } });
    expect(takerShifts.body).toEqual([
      expect.objectContaining({ assignment_id: stationId, start: span.start, end: span.end, traded_with: requester }),
    ]);

    const nextOccurrence = await org.get('/schedule', {
      query: { start: '2031-03-07 00:00:00', end: '2031-03-08 00:00:00' },
    });
    const later = nextOccurrence.body.days[0].assignments.find((a: { id: number }) => a.id === stationId);
    expect(later.shifts.map((shift: { user: { id: number } }) => shift.user.id)).toContain(requester);
  });

  it("refuses a taker who lacks a qualifier the requester's seat needs", async () => {
    const { requester, taker } = await people();
    const qualifierId = await createQualifier('Paramedic', 'EMT-P');
    const medic = await createAssignment(org, {
      name: 'Medic 1',
      start: '2031-03-01 07:00:00',
      end: '2031-03-02 07:00:00',
      qualifiers_needed: [{ id: qualifierId, minimum_staffing: 1 }],
    });
    await org.post(`/users/${requester}/qualifiers`, { id: qualifierId });
    await placeOnRotation(org, {
      user_id: requester,
      rotation_id: rotationId,
      assignment_id: medic,
      crew: 'A',
      start_date: '2031-03-01',
    });
    const response = await org.post('/trades', {
      requesting_user: requester,
      start: '2031-03-10 07:00:00',
      end: '2031-03-11 07:00:00',
      accepting_user_id: taker,
      approving_user_id: adminId,
    });
    expect(response.status).toBe(422);
    expect(response.body.error_message).toEqual(['Jack Smith cannot take this trade: lacks EMT-P.']);
  });
});

describe('GET /trades/{id}/users', () => {
  it('lists the users offered the trade and their responses', async () => {
    const { requester, taker } = await people();
    const declining = await org.createUser({ first_name: 'Dee', last_name: 'Cline' });
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span, offered_user_ids: [declining, taker] });
    await org.patch(`/trades/${id}`, { action: 'decline', user_id: declining });
    await org.patch(`/trades/${id}`, { action: 'accept', user_id: taker });
    const response = await org.get(`/trades/${id}/users`);
    expect(response).toAnswer(200, [
      {
        id: String(declining),
        user: strRef(declining, 'Dee Cline'),
        status: 'declined',
        offered_at: ISO,
        responded_at: ISO,
      },
      { id: String(taker), user: strRef(taker, 'Jack Smith'), status: 'accepted', offered_at: ISO, responded_at: ISO },
    ]);
  });

  it('answers 404 for another organization and 401 without a token', async () => {
    const { requester } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span });
    await expectNotFoundForOtherOrg(other, 'GET', `/trades/${id}/users`);
    await expectAuthRequired(server, 'GET', `/trades/${id}/users`);
  });
});

describe('DELETE /trades/{id}', () => {
  it('deletes an open trade: it disappears from reads', async () => {
    const { requester } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span });
    const response = await org.del(`/trades/${id}`);
    expect(response).toSucceed(200, `Trade #${id} deleted`, { id });
    expect((await org.get(`/trades/${id}`)).status).toBe(404);
    expect((await org.get('/trades')).body.map((t: { id: string }) => t.id)).not.toContain(String(id));
  });

  it('refuses to delete a filled trade', async () => {
    const { requester, taker } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span, accepting_user_id: taker });
    await org.patch(`/trades/${id}`, { action: 'approve' });
    const response = await org.del(`/trades/${id}`);
    expect(response.status).toBe(422);
    expect(response.body.error_message).toEqual([
      `Trade #${id} is filled: its work has moved and it cannot be deleted.`,
    ]);
  });

  it('answers 404 for another organization and 401 without a token', async () => {
    const { requester } = await people();
    const span = nextSpan();
    await giveShift(requester, span.start, span.end);
    const id = await createTrade({ requesting_user: requester, ...span });
    await expectNotFoundForOtherOrg(other, 'DELETE', `/trades/${id}`);
    await expectAuthRequired(server, 'DELETE', `/trades/${id}`);
  });
});
