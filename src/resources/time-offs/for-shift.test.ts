import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestOrg, type TestServer } from '../../../test/helpers/server.js';
import { createAssignment, createRotation, placeOnRotation, workTypeId } from '../rotations/test-fixtures.js';

/**
 * POST /time_offs `for_shift` (extension): the board's "Mark sick" names the shift it read; a shift
 * that has moved, is someone else's, or has ended since is refused with 409 and nothing is written.
 * Without the field the request behaves as the spec says. Dates are fixed far from today.
 */
let server: TestServer;
let org: TestOrg;
let adminId: number;
let userId: number;
let otherId: number;
let assignmentId: number;
let sickId: number;
let regular: number;

async function shift(user: number, date: string, start: string, end: string): Promise<number> {
  const response = await org.post('/shifts', {
    assignment_id: assignmentId,
    user_id: user,
    date,
    start,
    end,
    work_type_id: regular,
    admin_id: adminId,
  });
  expect(response.status, response.text).toBe(201);
  return response.body.id as number;
}

const sick = (user: number, start: string, end: string, forShift?: unknown) =>
  org.post('/time_offs', {
    user_id: user,
    admin_ids: [adminId],
    start_date: start,
    end_date: end,
    time_off_type_id: sickId,
    status: 1,
    ...(forShift ? { for_shift: forShift } : {}),
  });

const timeOffsOn = async (start: string, end: string) =>
  ((await org.get('/time_offs', { query: { start, end } })).body.items as unknown[]).length;

beforeAll(async () => {
  server = await startServer();
  org = await server.newOrg();
  adminId = await org.createUser({ first_name: 'Dana', last_name: 'Chief', role: 'Admin' });
  userId = await org.createUser({ first_name: 'Sam', last_name: 'Able' });
  otherId = await org.createUser({ first_name: 'Lee', last_name: 'Baker' });
  assignmentId = await createAssignment(org, { start: '2090-01-01 07:00:00', end: '2090-01-02 07:00:00' });
  regular = await workTypeId(org);
  sickId = (await org.post('/time_off_types', { label: 'Sick' })).body.id;
});
afterAll(() => server.close());

describe('POST /time_offs with for_shift (extension)', () => {
  it('records the time off when the shift is as the client read it', async () => {
    const id = await shift(userId, '2090-03-10', '2090-03-10 07:00:00', '2090-03-11 07:00:00');
    const response = await sick(userId, '2090-03-10 07:00:00', '2090-03-11 07:00:00', {
      id,
      recurring: false,
      start: '2090-03-10 07:00:00',
      end: '2090-03-11 07:00:00',
    });
    expect(response.status, response.text).toBe(201);
  });

  it('refuses with 409, writing nothing, when the shift has moved since it was read', async () => {
    const id = await shift(userId, '2090-04-10', '2090-04-10 07:00:00', '2090-04-11 07:00:00');
    const moved = await org.patch(`/shifts/${id}`, {
      date: '2090-04-12',
      start: '2090-04-12 07:00:00',
      end: '2090-04-13 07:00:00',
    });
    expect(moved.status, moved.text).toBe(200);
    const read = { id, recurring: false, start: '2090-04-10 07:00:00', end: '2090-04-11 07:00:00' };
    const response = await sick(userId, '2090-04-10 07:00:00', '2090-04-11 07:00:00', read);
    expect(response.status, response.text).toBe(409);
    expect(response.body).toEqual({
      status: 409,
      error: 'conflict',
      error_message: expect.stringContaining('The shift of 2090-04-10 07:00:00 to 2090-04-11 07:00:00 has moved'),
    });
    expect(await timeOffsOn('2090-04-01 00:00:00', '2090-04-30 00:00:00')).toBe(0);
    // the spec's request, without the field, is not judged against any shift
    expect((await sick(userId, '2090-04-10 07:00:00', '2090-04-11 07:00:00')).status).toBe(201);
  });

  it('refuses a shift given to someone else since', async () => {
    const id = await shift(userId, '2090-05-10', '2090-05-10 07:00:00', '2090-05-11 07:00:00');
    const swapped = await org.patch(`/shifts/${id}`, {
      date: '2090-05-10',
      start: '2090-05-10 07:00:00',
      end: '2090-05-11 07:00:00',
      user_id: otherId,
    });
    expect(swapped.status, swapped.text).toBe(200);
    const read = { id, recurring: false, start: '2090-05-10 07:00:00', end: '2090-05-11 07:00:00' };
    expect((await sick(userId, read.start, read.end, read)).status).toBe(409);
    expect(await timeOffsOn('2090-05-01 00:00:00', '2090-05-30 00:00:00')).toBe(0);
  });

  it('refuses a shift that has ended', async () => {
    const id = await shift(userId, '2020-03-10', '2020-03-10 07:00:00', '2020-03-11 07:00:00');
    const read = { id, recurring: false, start: '2020-03-10 07:00:00', end: '2020-03-11 07:00:00' };
    const response = await sick(userId, read.start, read.end, read);
    expect(response.status, response.text).toBe(409);
    expect(response.body.error_message).toBe(
      'The shift of 2020-03-10 07:00:00 to 2020-03-11 07:00:00 has ended; nothing was recorded.',
    );
  });

  it('judges a rotation occurrence as GET /schedule shows it: current, then refused once off', async () => {
    const rotationId = await createRotation(org, { anchor_date: '2090-08-01' });
    const crewId = await org.createUser({ first_name: 'Kim', last_name: 'Crew' });
    await placeOnRotation(org, {
      user_id: crewId,
      rotation_id: rotationId,
      assignment_id: assignmentId,
      crew: 'A',
      start_date: '2090-08-01',
    });
    const schedule = await org.get('/schedule', {
      query: { start: '2090-08-04 00:00:00', end: '2090-08-04 23:59:59' },
    });
    const read = schedule.body.days[0].assignments
      .flatMap((a: { shifts: unknown[] }) => a.shifts)
      .find((s: { user: { id: number } }) => s.user.id === crewId);
    expect(read).toMatchObject({ recurring: true });
    const forShift = { id: read.id, recurring: true, start: read.start, end: read.end };
    // a one-off shift of the same id is not this occurrence
    expect((await sick(crewId, read.start, read.end, { ...forShift, recurring: false })).status).toBe(409);
    expect((await sick(crewId, read.start, read.end, forShift)).status).toBe(201);
    // already off: the occurrence is no longer worked
    const again = await sick(crewId, read.start, read.end, forShift);
    expect(again.status, again.text).toBe(409);
  });

  it('refuses a for_shift without its fields, naming each', async () => {
    const response = await sick(userId, '2090-06-10 07:00:00', '2090-06-11 07:00:00', { id: 1 });
    expect(response.status, response.text).toBe(422);
    expect(JSON.stringify(response.body.error_message)).toMatch(/recurring/);
    expect(JSON.stringify(response.body.error_message)).toMatch(/start/);
  });
});
