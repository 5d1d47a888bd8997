import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { createAssignment, workTypeId } from '../rotations/test-fixtures.js';
import { createCallbackRunner, type CallbackRunner } from './runner/runner.js';
import { listOf, usersOf } from './test-fixtures.js';
import { createTimeOff } from '../time-offs/test-fixtures.js';

/**
 * Never offer someone their own absence (docs/workflows.md): the person whose approved time off
 * opened a seat is not a candidate for it, through the candidates list, a callback's users and the
 * runner; on a callable (force_include) type they stay a candidate for other seats.
 */
let server: TestServer;
let org: TestOrg;
let adminId: number;
let medicOne: number;
let medicTwo: number;
let sickType: number;
let kellyType: number;
const runners: CallbackRunner[] = [];

const DATE = '2032-05-12';
const START = `${DATE} 07:00:00`;
const END = '2032-05-13 07:00:00';

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg({ name: 'Station Four' });
  adminId = await org.createUser({ first_name: 'Chief', last_name: 'Admin' });
  const window = { start: '2032-05-01 07:00:00', end: '2032-05-02 07:00:00' };
  medicOne = await createAssignment(org, { name: 'Medic 1', ...window, positions_to_fill: 1 });
  medicTwo = await createAssignment(org, { name: 'Medic 2', ...window, positions_to_fill: 1 });
  sickType = (await org.post('/time_off_types', { label: 'Sick', work_code: 'SL' })).body.id;
  kellyType = (await org.post('/time_off_types', { label: 'Kelly Day', work_code: 'KD', force_include: true })).body.id;
});
afterAll(async () => {
  for (const runner of runners) await runner.stop();
  await server.close();
});

async function person(first: string, last: string): Promise<number> {
  return org.createUser({ first_name: first, last_name: last, mail: `${first.toLowerCase()}@example.com` });
}

async function work(userId: number, assignmentId: number): Promise<void> {
  const shift = await org.post('/shifts', {
    assignment_id: assignmentId,
    user_id: userId,
    date: DATE,
    start: START,
    end: END,
    work_type_id: await workTypeId(org),
  });
  expect(shift.status, shift.text).toBe(201);
}

async function off(userId: number, typeId: number): Promise<void> {
  await createTimeOff(org, { userId, adminId, start: START, end: END, typeId, status: 1 });
}

type Candidates = {
  candidates: Array<{ user: { id: number } }>;
  skipped: Array<{ user: { id: number }; reason: string }>;
};

async function candidatesFor(assignmentId: number, listId: number) {
  const response = await org.get<Candidates>('/vacancies/candidates', {
    query: { assignment_id: assignmentId, date: DATE, list_id: listId },
  });
  expect(response.status, response.text).toBe(200);
  return {
    ids: response.body.candidates.map((c) => c.user.id),
    reason: (id: number) => response.body.skipped.find((s) => s.user.id === id)?.reason,
  };
}

async function callbackFor(assignmentId: number, listId: number) {
  const response = await org.post('/callbacks', {
    list_id: listId,
    initiated_by: adminId,
    assignment_id: assignmentId,
    start: START,
    end: END,
    positions_to_fill: 1,
    deadline: '2035-01-01T00:00:00+00:00',
  });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: number; skipped: Array<{ user_id: number; reason: string }> };
}

describe('the person whose absence opened the seat', () => {
  it('marked sick: not a candidate, not among the callback users, never offered by the runner', async () => {
    const olivia = await person('Olivia', 'Stone');
    const ben = await person('Ben', 'Ortiz');
    await work(olivia, medicOne);
    await off(olivia, sickType);
    const listId = await listOf(org, 'Medic list', [olivia, ben]);

    const candidates = await candidatesFor(medicOne, listId);
    expect(candidates.ids).toEqual([ben]);
    expect(candidates.reason(olivia)).toBe('on approved Sick 2032-05-12 07:00–07:00');

    const callback = await callbackFor(medicOne, listId);
    expect((await usersOf(org, callback.id)).map((u) => Number(u.id))).toEqual([ben]);
    expect(callback.skipped).toEqual([{ user_id: olivia, reason: 'on approved Sick 2032-05-12 07:00–07:00' }]);

    const runner = createCallbackRunner(server.app, { baseUrl: server.url });
    runners.push(runner);
    await runner.runOnce(new Date().toISOString());
    const users = await usersOf(org, callback.id);
    expect(users.filter((u) => u.contact_time !== null).map((u) => Number(u.id))).toEqual([ben]);
    expect(users.some((u) => Number(u.id) === olivia)).toBe(false);
  });

  it('on a callable Kelly day: not offered the seat it opened, still a candidate for another one', async () => {
    const kai = await person('Kai', 'Reyes');
    const dee = await person('Dee', 'Park');
    await work(kai, medicTwo);
    await off(kai, kellyType);
    const listId = await listOf(org, 'Kelly list', [kai, dee]);

    const own = await candidatesFor(medicTwo, listId);
    expect(own.ids).toEqual([dee]);
    expect(own.reason(kai)).toBe('on approved Kelly Day 2032-05-12 07:00–07:00 (the absence that opened this seat)');
    const callback = await callbackFor(medicTwo, listId);
    expect(callback.skipped.map((s) => s.user_id)).toEqual([kai]);

    // Medic 1's seat is open too (Olivia is sick): the Kelly day holder may be called for it
    const other = await candidatesFor(medicOne, listId);
    expect(other.ids).toContain(kai);
    expect(other.reason(kai)).toBeUndefined();
  });
});
