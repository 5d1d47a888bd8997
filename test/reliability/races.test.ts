import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestOrg, type TestServer } from '../helpers/server.js';
import { createdId, firstWorkTypeId, loadOperations, sampleFromSchema, type Operation } from './openapi.js';

/**
 * 50 identical requests at once that may succeed only once: exactly one success, the rest 4xx,
 * never a 5xx. Routes that do not exist yet are detected from /v1/openapi.json and the test is skipped.
 */

const PARALLEL = 50;

let server: TestServer;
let org: TestOrg;
let operations: Operation[];

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  operations = await loadOperations(server);
});
afterAll(() => server?.close());

const hasRoute = (method: string, path: string) => operations.some((op) => op.method === method && op.path === path);

function tally(responses: ApiResponse[]) {
  const statuses = responses.map((r) => r.status);
  return {
    successes: statuses.filter((s) => s >= 200 && s < 300).length,
    clientErrors: statuses.filter((s) => s >= 400 && s < 500).length,
    serverErrors: responses.filter((r) => r.status >= 500).map((r) => r.text),
  };
}

/** Every refusal is in the spec's error format. */
function expectErrorBodies(responses: ApiResponse[]) {
  for (const response of responses.filter((r) => r.status >= 400)) {
    expect(response.body).toEqual({ status: response.status, error: expect.any(String), error_message: expect.anything() });
  }
}

describe('PUT /users with the same username 50 times at once', () => {
  it('creates the user once and refuses the rest with a 4xx', async () => {
    const body = { username: 'race_user', first_name: 'Race', last_name: 'User', mail: 'race@example.com', password: 'secret-password' };
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => org.put('/users', body)));
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
    const users = await org.get('/users');
    expect(users.body.filter((u: { username: string }) => u.username === 'race_user')).toHaveLength(1);
  });
});

describe('POST /signup_events/{id}/users at once', () => {
  const skip = () => !hasRoute('POST', '/v1/signup_events/{id}/users');

  async function createEvent(employeesNeeded: number): Promise<number> {
    const admin = await org.createUser();
    const response = await org.post('/signup_events', {
      admin_id: admin,
      title: 'Race event',
      start: '2030-03-02 08:00:00',
      end: '2030-03-02 16:00:00',
      employees_needed: employeesNeeded,
      work_type_id: await firstWorkTypeId(server, org),
    });
    expect(response.status).toBe(201);
    return response.body.id as number;
  }

  it('signs the same user up once', async (context) => {
    if (skip()) context.skip();
    const eventId = await createEvent(5);
    const userId = await org.createUser();
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => org.post(`/signup_events/${eventId}/users`, { user_id: userId })));
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
  });

  it('gives the last slot to exactly one of 50 different users', async (context) => {
    if (skip()) context.skip();
    const eventId = await createEvent(1);
    const userIds: number[] = [];
    for (let i = 0; i < PARALLEL; i += 1) userIds.push(await org.createUser());
    const responses = await Promise.all(userIds.map((userId) => org.post(`/signup_events/${eventId}/users`, { user_id: userId })));
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
    const signedUp = await org.get(`/signup_events/${eventId}/users`);
    expect(signedUp.status).toBe(200);
    expect(JSON.stringify(signedUp.body).match(/"id":/g)?.length ?? 0).toBeGreaterThanOrEqual(1);
  });
});

describe('POST /assignments/{id}/finalization for the same date at once', () => {
  const skip = () => !hasRoute('POST', '/v1/assignments/{id}/finalization') || !hasRoute('POST', '/v1/assignments');

  it('finalizes once and refuses the rest with a 4xx', async (context) => {
    if (skip()) context.skip();
    const admin = await org.createUser();
    const create = operations.find((op) => op.method === 'POST' && op.path === '/v1/assignments')!;
    const ids = { userId: admin, workTypeId: await firstWorkTypeId(server, org) };
    const assignment = await org.post('/assignments', sampleFromSchema(create.body, ids));
    expect(assignment.status, assignment.text).toBeLessThan(300);
    const assignmentId = createdId(assignment.body);
    const body = { date: '2026-03-02', admin_id: admin };
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => org.post(`/assignments/${assignmentId}/finalization`, body)));
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
  });
});

/** The organization's system log lines that match. */
async function logLines(as: TestOrg, pattern: RegExp): Promise<string[]> {
  const response = await as.get('/logs', { query: { limit: 200 } });
  expect(response.status, response.text).toBe(200);
  return (response.body.data as Array<{ event_description: string }>).map((row) => row.event_description).filter((text) => pattern.test(text));
}

describe('time off decisions at once', () => {
  let as: TestOrg;
  let adminId: number;
  let typeId: number;

  beforeAll(async () => {
    as = await server.newOrg();
    adminId = await as.createUser();
    typeId = (await as.post('/time_off_types', { label: 'Vacation' })).body.id;
  });

  let day = 0;
  /** A user with 100 banked hours and a pending 8-hour request, on a day of its own. */
  async function pendingRequest(): Promise<{ userId: number; id: number; date: string }> {
    day += 1;
    const date = `2031-05-${String(day).padStart(2, '0')}`;
    const userId = await as.createUser();
    expect((await as.post(`/users/${userId}/timeoff/accrual/bank`, { time_off_type_id: typeId, hours: 100, admin_id: adminId })).status).toBe(201);
    const created = await as.post('/time_offs', { user_id: userId, admin_ids: [adminId], start_date: `${date} 08:00:00`, end_date: `${date} 16:00:00`, time_off_type_id: typeId });
    expect(created.status, created.text).toBe(201);
    return { userId, id: created.body.id as number, date };
  }

  const bankOf = async (userId: number) => (await as.get(`/users/${userId}/timeoff/accrual/bank`)).body[0]?.hours as number;
  const ledgerOf = async (userId: number) =>
    (await as.get(`/users/${userId}/timeoff/accrual/transactions`)).body.map((row: { kind: string; hours: number }) => [row.kind, row.hours]);

  it('50 approvals: one succeeds, one log line, one debit', async () => {
    const { userId, id, date } = await pendingRequest();
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => as.post(`/time_offs/${id}/approve`, { admin_id: adminId })));
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
    expect(await logLines(as, new RegExp(`approved time off .*${date} 08:00`))).toHaveLength(1);
    expect(await ledgerOf(userId)).toEqual([['manual', 100], ['time_off', -8]]);
    expect(await bankOf(userId)).toBe(92);
  });

  it('25 approvals against 25 denials: one decision, and the bank matches it', async () => {
    const { userId, id, date } = await pendingRequest();
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => as.post(`/time_offs/${id}/${i % 2 === 0 ? 'approve' : 'deny'}`, { admin_id: adminId })),
    );
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
    const winner = responses.findIndex((r) => r.status === 200) % 2 === 0 ? 'approved' : 'denied';
    const decisions = await logLines(as, new RegExp(`(approved|denied) time off .*${date} 08:00`));
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toContain(winner);
    if (winner === 'approved') {
      expect(await ledgerOf(userId)).toEqual([['manual', 100], ['time_off', -8]]);
      expect(await bankOf(userId)).toBe(92);
    } else {
      expect(await ledgerOf(userId)).toEqual([['manual', 100]]);
      expect(await bankOf(userId)).toBe(100);
    }
  });

  it('50 deletions of approved time off: one succeeds and gives the hours back once', async () => {
    const { userId, id } = await pendingRequest();
    expect((await as.post(`/time_offs/${id}/approve`, { admin_id: adminId })).status).toBe(200);
    const responses = await Promise.all(Array.from({ length: PARALLEL }, () => as.del(`/time_offs/${id}`)));
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
    expect(await ledgerOf(userId)).toEqual([['manual', 100], ['time_off', -8], ['time_off_restored', 8]]);
    expect(await bankOf(userId)).toBe(100);
  });

  it('50 requests of a type allowed once a year: one is taken', async () => {
    const userId = await as.createUser();
    const onceId = (await as.post('/time_off_types', { label: 'Once', instance_limit: 1 })).body.id;
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        as.post('/time_offs', {
          user_id: userId,
          admin_ids: [adminId],
          start_date: `2031-06-${String(1 + (i % 28)).padStart(2, '0')} 08:00:00`,
          end_date: `2031-06-${String(1 + (i % 28)).padStart(2, '0')} 09:00:00`,
          time_off_type_id: onceId,
        }),
      ),
    );
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
  });
});

describe('POST /shifts for one user and overlapping times at once', () => {
  it('books the user once and refuses the rest with a 422', async () => {
    const as = await server.newOrg();
    const userId = await as.createUser();
    const assignment = await as.post('/assignments', { name: 'Race engine', start: '2031-01-01 07:00:00', end: '2031-01-01 08:00:00', positions_to_fill: 1 });
    expect(assignment.status, assignment.text).toBe(201);
    const assignmentId = (assignment.body.id ?? assignment.body.assignment?.id) as number;
    const workTypeId = await firstWorkTypeId(server, as);
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        as.post('/shifts', {
          assignment_id: assignmentId,
          user_id: userId,
          date: '2031-07-01',
          start: `2031-07-01 08:${String(i).padStart(2, '0')}:00`,
          end: '2031-07-01 16:00:00',
          work_type_id: workTypeId,
        }),
      ),
    );
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
    const shifts = await as.get('/shifts', { query: { user_id: userId } });
    expect(shifts.status, shifts.text).toBe(200);
    expect(shifts.body).toHaveLength(1);
  });
});

describe('PATCH /trades/{id} approvals against denials at once', () => {
  it('decides once: an approval moves the shift once, a denial leaves it', async () => {
    const as = await server.newOrg();
    const [adminId, requester, taker] = [await as.createUser(), await as.createUser(), await as.createUser()];
    const assignment = await as.post('/assignments', { name: 'Race station', start: '2031-01-01 07:00:00', end: '2031-01-01 08:00:00', positions_to_fill: 1 });
    const assignmentId = (assignment.body.id ?? assignment.body.assignment?.id) as number;
    const span = { start: '2031-08-01 07:00:00', end: '2031-08-02 07:00:00' };
    const shift = await as.post('/shifts', { assignment_id: assignmentId, user_id: requester, date: '2031-08-01', ...span, work_type_id: await firstWorkTypeId(server, as) });
    expect(shift.status, shift.text).toBe(201);
    const trade = await as.post('/trades', { requesting_user: requester, accepting_user_id: taker, approving_user_id: adminId, ...span });
    expect(trade.status, trade.text).toBe(201);
    const id = trade.body.id as number;
    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => as.patch(`/trades/${id}`, { action: i % 2 === 0 ? 'approve' : 'deny', admin_id: adminId })),
    );
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
    const approved = responses.findIndex((r) => r.status === 200) % 2 === 0;
    expect(await logLines(as, new RegExp(`(approved|denied) trade #${id} `))).toHaveLength(1);
    const shiftsOf = async (userId: number) => (await as.get('/shifts', { query: { user_id: userId } })).body.length as number;
    expect([await shiftsOf(requester), await shiftsOf(taker)]).toEqual(approved ? [0, 1] : [1, 0]);
  });
});

describe('POST /callbacks/{id}/users: 50 members accept one open position at once', () => {
  it('takes one acceptance, places one shift and fills the callback', async () => {
    const as = await server.newOrg();
    const adminId = await as.createUser();
    const assignment = await as.post('/assignments', { name: 'Race engine', start: '2032-01-01 08:00:00', end: '2032-01-01 09:00:00', positions_to_fill: 1 });
    expect(assignment.status, assignment.text).toBe(201);
    const list = await as.post('/lists', { name: 'Race list' });
    expect(list.status, list.text).toBe(201);
    const members = await Promise.all(Array.from({ length: PARALLEL }, () => as.createUser()));
    // list order is join order; which member answers first does not matter here
    const joined = await Promise.all(members.map((userId) => as.put(`/users/${userId}/titles`, { ids: [list.body.id] })));
    expect(joined.map((r) => r.status)).toEqual(members.map(() => 200));
    const callback = await as.post('/callbacks', {
      list_id: list.body.id,
      initiated_by: adminId,
      start: '2032-03-10 08:00:00',
      end: '2032-03-10 20:00:00',
      positions_to_fill: 1,
      deadline: '2035-01-01T00:00:00+00:00',
      assignment_id: assignment.body.id ?? assignment.body.assignment?.id,
      work_type_id: await firstWorkTypeId(server, as),
    });
    expect(callback.status, callback.text).toBe(201);
    const id = callback.body.id as number;
    const responses = await Promise.all(members.map((userId) => as.post(`/callbacks/${id}/users`, { user_id: userId, status: 'accepted' })));
    expect(tally(responses)).toEqual({ successes: 1, clientErrors: PARALLEL - 1, serverErrors: [] });
    expectErrorBodies(responses);
    expect(await logLines(as, new RegExp(`accepted callback #${id} `))).toHaveLength(1);
    const winner = members[responses.findIndex((r) => r.status < 300)]!;
    expect((await as.get('/shifts', { query: { user_id: winner } })).body).toHaveLength(1);
  }, 120_000); // 50 members to set up and 50 eligibility checks, on a shared machine
});
